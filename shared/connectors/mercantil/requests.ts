/**
 * The bodies Mercantil's card API takes, built field for field as the bank's own samples send them (wire.ts).
 */
import { createHash } from 'node:crypto';
import { cardBrand, fundingOfBrand, type PaymentData } from '../../domain/payment-data.ts';
import type { PayerClient } from '../../gateways/payment-gateway.ts';
import type { MercantilCredentialSet } from './credentials.ts';
import { encryptField } from './field-cipher.ts';
import type { AccountType, ClientIdentify, GetauthRequest, MerchantIdentify, PaymentMethod, PayRequest, SearchRequest } from './wire.ts';

export const merchantIdentify = ({ integratorId, merchantId, terminalId }: MercantilCredentialSet): MerchantIdentify => ({ integratorId, merchantId, terminalId });

export const clientIdentify = (client: PayerClient): ClientIdentify => ({ ipaddress: client.ipAddress, browser_agent: client.userAgent });

/**
 * Minor units to the bank's bolívares, exactly, as a string with two decimals (the bank's samples send "5" and
 * "5.00"): integer arithmetic, never a float.
 *
 * @example
 * bolivares(1050) // '10.50'
 */
export function bolivares(amountMinor: number): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError(`amountMinor must be a whole number of céntimos, not ${amountMinor}`);
  return `${Math.trunc(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
}

/** Digits of an invoice number: the bank's samples use 6 and 9 digits; its limit is in a PDF nobody could read. */
export const INVOICE_DIGITS = 12;

/**
 * Our transaction reference as the bank's invoice_number: digits only, derived (never stored), so a repeat of the
 * same charge, a status read or a reconciliation always names the same invoice, which the bank deduplicates. Twelve
 * digits of SHA-256: two of a merchant's transactions share one with probability n²/2·10¹², and the search that
 * settles a charge also checks the amount.
 *
 * @example
 * invoiceNumber('txn_3kTz9w') // '4823...' (12 digits)
 */
export function invoiceNumber(transactionReference: string): string {
  const digest = createHash('sha256').update(transactionReference).digest();
  return (digest.readBigUInt64BE(0) % 10n ** BigInt(INVOICE_DIGITS)).toString().padStart(INVOICE_DIGITS, '0');
}

/**
 * Debit (tdd) or credit (tdc): the bank's API asks the merchant to say, its docs do not say how to tell. Maestro
 * cards (cardBrand's IIN ranges: Venezuelan debit cards, the bank's test debit card among them) are debit; every
 * other card is charged as credit.
 */
export const paymentMethod = (cardNumber: string): PaymentMethod => (fundingOfBrand(cardBrand(cardNumber)) === 'debit' ? 'tdd' : 'tdc');

/** The cédula or RIF as the bank writes it: the letter then the digits (V18366876). */
export const customerId = (document: PaymentData['document']): string => (document ? `${document.type}${document.id}` : '');

export const expirationDate = (card: Pick<PaymentData['card'], 'expMonth' | 'expYear'>): string => `${card.expYear}/${String(card.expMonth).padStart(2, '0')}`;

/** The day Mercantil records a charge under: Caracas time (VET, UTC-4 all year), YYYY/MM/DD as search takes it. */
export const processingDate = (at: Date): string => new Date(at.getTime() - 4 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '/');

export function getauthBody(credentials: MercantilCredentialSet, client: PayerClient, payment: PaymentData): GetauthRequest {
  return {
    merchant_identify: merchantIdentify(credentials),
    client_identify: clientIdentify(client),
    transaction_authInfo: { trx_type: 'solaut', payment_method: 'tdd', customer_id: customerId(payment.document), card_number: payment.card.number },
  };
}

export interface PayInput {
  transactionReference: string;
  amountMinor: number;
  payment: PaymentData;
  client: PayerClient;
  /** Debit: the buyer's code and the card's account. */
  debit?: { code: string; accountType: AccountType };
}

export function payBody(credentials: MercantilCredentialSet, input: PayInput): PayRequest {
  const { card, document } = input.payment;
  const method = paymentMethod(card.number);
  return {
    merchant_identify: merchantIdentify(credentials),
    client_identify: clientIdentify(input.client),
    transaction: {
      trx_type: 'compra',
      payment_method: method,
      card_number: card.number,
      customer_id: customerId(document),
      ...(input.debit ? { account_type: input.debit.accountType } : {}),
      invoice_number: invoiceNumber(input.transactionReference),
      ...(input.debit ? { twofactor_auth: encryptField(input.debit.code, credentials.secretKey) } : {}),
      expiration_date: expirationDate(card),
      cvv: encryptField(card.cvv, credentials.secretKey),
      currency: 'ves',
      amount: bolivares(input.amountMinor),
    },
  };
}

/** A search by our invoice; the bank's reference is not known when the pay answer never came. */
export function searchBody(credentials: MercantilCredentialSet, client: PayerClient, transactionReference: string, chargedAt: Date): SearchRequest {
  return {
    merchant_identify: merchantIdentify(credentials),
    client_identify: clientIdentify(client),
    search_by: { search_criteria: 'unique', procesing_date: processingDate(chargedAt), invoice_number: invoiceNumber(transactionReference), payment_reference: '' },
  };
}
