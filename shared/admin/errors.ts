/** An admin operation refused; the message is for the platform team and says what to do instead. */
export class AdminError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdminError';
  }
}

export class MerchantNotFoundError extends AdminError {
  constructor(merchantId: string) {
    super(`No merchant ${merchantId} in this table.`);
    this.name = 'MerchantNotFoundError';
  }
}

/** No such key, or it belongs to another merchant: the two are not told apart. */
export class KeyNotFoundError extends AdminError {
  constructor(merchantId: string) {
    super(`Merchant ${merchantId} has no such key.`);
    this.name = 'KeyNotFoundError';
  }
}
