/**
 * What the pago móvil routes share: the payer as the request gave it, the network and account that take a method on
 * a session, the parties a pago móvil operation names, and the bounds on payment keys (each one an SMS to the buyer).
 * The charge itself is an attempt like a card's (charge-steps.ts).
 */
import type { Merchant, GatewayId } from '../domain/merchant.ts';
import { nationalPhone } from '../domain/pago-movil.ts';
import { PAYMENT_KEYS_PER_PHONE_PER_DAY, PAYMENT_KEYS_PER_SESSION } from '../domain/pago-movil-verification.ts';
import { methodGateway, type PagoMovilMethod } from '../domain/payment-method.ts';
import { cleanDocumentId } from '../domain/prefill.ts';
import { rateWindows } from '../domain/rate-limits.ts';
import { methodsOf, type Session } from '../domain/session.ts';
import type { Transaction } from '../domain/transaction.ts';
import type { PaymentDeps } from '../deps.ts';
import { ApiError, ValidationError } from '../errors.ts';
import type { PagoMovilPayer } from '../gateways/pago-movil-port.ts';
import type { BankAccount, PagoMovilParties } from '../gateways/payment-gateway.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import type { PagoMovilKeyBody } from '../schemas/checkout-schemas.ts';
import { ConditionFailedError, named, TransactionConditionFailedError } from '../store/conditions.ts';
import { bankAccountFor } from './bank-account.ts';

/** The payer of a request its schema checked: the phone in its national form, the document cleaned. */
export const payerOf = (body: PagoMovilKeyBody): PagoMovilPayer => ({
  bankCode: body.bankCode as PagoMovilPayer['bankCode'],
  phone: nationalPhone(body.phone)!,
  document: { type: body.documentType, id: cleanDocumentId(body.documentId) },
});

/**
 * The parties of a pago móvil transaction for its status read, void and vuelto: its payer as recorded, and the
 * merchant's affiliated phone now. Undefined for a card.
 */
export function pagoMovilParties(merchant: Pick<Merchant, 'pagoMovil'>, t: Pick<Transaction, 'pagoMovil' | 'document' | 'amountMinor'>): PagoMovilParties | undefined {
  if (!t.pagoMovil || !t.document || !merchant.pagoMovil) return undefined;
  return { payer: { bankCode: t.pagoMovil.bankCode, phone: t.pagoMovil.phone, document: t.document }, payeePhone: merchant.pagoMovil.payee.phone, amountMinor: t.amountMinor };
}

export interface PagoMovilChannel {
  gateway: GatewayId;
  account: BankAccount;
  payeePhone: string;
}

/**
 * The network that takes a pago móvil method for this session and the merchant's account at it. 400
 * payment_method_unavailable when the session does not take the method; the account's own refusals (test mode,
 * credentials) are its 409s.
 */
export async function pagoMovilChannel(deps: PaymentDeps, merchant: Merchant, session: Session, method: PagoMovilMethod): Promise<PagoMovilChannel> {
  const gateway = methodGateway(merchant, session.currency, method);
  if (!methodsOf(session).includes(method) || !gateway || !merchant.pagoMovil) {
    throw new ValidationError(`This session does not take ${method}: it takes ${methodsOf(session).join(', ')}.`, 'sessionReference', 'payment_method_unavailable');
  }
  const account = await bankAccountFor(deps, merchant, { mode: session.mode, currency: session.currency, gateway });
  return { gateway, account, payeePhone: merchant.pagoMovil.payee.phone };
}

/** What the fingerprinter keys for the per-phone bound: its own prefix, so it matches no other fingerprint. */
const phoneKeysInput = (phone: string) => `payment-keys:v1|${phone}`;
/** The per-phone counter is across merchants: one owner for the whole service. */
const PHONE_KEYS_OWNER = 'pago_movil';
const KEYS_COUNTER = 'payment_keys';

const keyLimit = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'payment_key_limit', message, { headers: { 'Retry-After': String(Math.max(1, retryAfterSeconds)) } });

/**
 * Counts a key request against the session (PAYMENT_KEYS_PER_SESSION in its life) and the phone
 * (PAYMENT_KEYS_PER_PHONE_PER_DAY per UTC day, across merchants, the phone known by its keyed fingerprint only), in one
 * transaction whose two counters are each conditional on their bound, so no race gets past either; or refuses with
 * 429 payment_key_limit and counts nothing. Counted before the bank is asked: a request that reached it may have sent
 * an SMS whatever its answer. Returns the keys the session has left.
 */
export async function countKeyRequest(deps: PaymentDeps, session: Session, phone: string, now: number): Promise<number> {
  // The session's counter lives in its creation day's window, so its bound holds across midnight.
  const sessionWindow = Date.parse(session.createdAt);
  const phoneCounter = `${KEYS_COUNTER}#${await deps.fingerprinter.fingerprint(phoneKeysInput(phone))}`;
  const items = [
    named('sessionKeys', deps.rateLimits.countItem(session.reference, KEYS_COUNTER, sessionWindow, PAYMENT_KEYS_PER_SESSION)),
    named('phoneKeys', deps.rateLimits.countItem(PHONE_KEYS_OWNER, phoneCounter, now, PAYMENT_KEYS_PER_PHONE_PER_DAY)),
  ];
  try {
    // A transaction conflict (another request on one of the counters at that instant) wrote nothing: sent again.
    await retry(policies.transactionContention, () => deps.charges.commit(items), {
      isRetryable: (error) => error instanceof ConditionFailedError && !(error instanceof TransactionConditionFailedError),
    });
  } catch (error) {
    if (!(error instanceof TransactionConditionFailedError)) throw error;
    if (error.failed === 'sessionKeys') {
      throw keyLimit(`This session has asked for ${PAYMENT_KEYS_PER_SESSION} payment keys, its limit. Use the last key sent, or a new session.`, (Date.parse(session.expiresAt) - now) / 1000);
    }
    throw keyLimit(`This phone has been sent ${PAYMENT_KEYS_PER_PHONE_PER_DAY} payment keys today (UTC), its limit.`, rateWindows(now).dayResetsInSeconds);
  }
  return PAYMENT_KEYS_PER_SESSION - (await deps.rateLimits.dayCount(session.reference, KEYS_COUNTER, sessionWindow));
}
