/** A secret could not be sealed or opened. The message never carries the secret nor the context values. */
export class CryptoError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CryptoError';
  }
}

/** Damaged or foreign ciphertext, or a ciphertext sealed for another record (its encryption context differs). */
export class DecryptionError extends CryptoError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DecryptionError';
  }
}

/** A local key file exists but cannot be a key of ours. */
export class KeyFileError extends CryptoError {
  constructor(message: string) {
    super(message);
    this.name = 'KeyFileError';
  }
}
