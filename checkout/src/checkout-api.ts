/**
 * The page's only network partner: the checkout API on the same origin (the sandbox, or CloudFront's
 * /v1/checkout/* behaviour in AWS). Card data travels in request bodies only, never in a URL.
 */
import type { z } from 'zod';
import type { CheckoutChargeResultSchema, CheckoutSessionSchema, PaymentKeyResultSchema } from '../../shared/schemas/checkout-responses.ts';
import type { ErrorBody } from '../../shared/http/response.ts';

export type CheckoutSession = z.output<typeof CheckoutSessionSchema> & { serverTime?: string };
export type ChargeResult = z.output<typeof CheckoutChargeResultSchema>;
export type PaymentKeyResult = z.output<typeof PaymentKeyResultSchema>;

export type NewCardPayment = {
  card: { number: string; expMonth: number; expYear: number; cvv: string; holderName: string };
  document?: { type: string; id: string };
};
/** Stored-card sessions: the card is known to the session, the buyer sends the CVV (and a document if asked). */
export type StoredCardPayment = { card: { cvv: string }; document?: { type: string; id: string } };

/** A pago móvil payer as the C2P routes take it: bank code, national phone, document; the key only for the charge. */
export type PagoMovilPayer = { bankCode: string; phone: string; documentType: string; documentId: string };

export type ApiAnswer<T> =
  | { ok: true; status: number; body: T; serverNow: number | null }
  | { ok: false; status: number; error: ErrorBody | null; retryAfterSeconds: number | null };

/** status 0: the request never got an answer (offline, connection dropped). */
const NO_ANSWER = { ok: false, status: 0, error: null, retryAfterSeconds: null } as const;

async function call<T>(path: string, init: RequestInit): Promise<ApiAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    return NO_ANSWER;
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after'));
    return { ok: false, status: response.status, error: body as ErrorBody | null, retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null };
  }
  // Date has whole seconds, cut down: the server's time was somewhere in the next second, half of one on average.
  const date = Date.parse(response.headers.get('date') ?? '') + 500;
  return { ok: true, status: response.status, body: body as T, serverNow: Number.isNaN(date) ? null : date };
}

/** Without an idempotency key for a route that takes none (the payment key request). */
const post = <T>(path: string, body: unknown, idempotencyKey?: string) =>
  call<T>(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) }, body: JSON.stringify(body) });

export const getCheckoutSession = (reference: string) => call<CheckoutSession>(`/v1/checkout/sessions/${encodeURIComponent(reference)}`, { method: 'GET' });

export const chargeCard = (sessionReference: string, payment: NewCardPayment | StoredCardPayment, idempotencyKey: string) =>
  post<ChargeResult>('/v1/checkout/charge', { sessionReference, ...payment }, idempotencyKey);

/** The CVV and account again, where the bank takes the card with the code (session otpAsksCard); or abandon the step. */
export const confirmOtp = (sessionReference: string, transactionReference: string, entry: { code: string; cvv?: string; accountType?: string } | { abandon: true }, idempotencyKey: string) =>
  post<ChargeResult>('/v1/checkout/otp', { sessionReference, transactionReference, ...entry }, idempotencyKey);

/** Asks the payer's bank to send them a C2P payment key (an SMS); bounded per session and phone (429 payment_key_limit). */
export const requestPagoMovilKey = (sessionReference: string, payer: PagoMovilPayer) => post<PaymentKeyResult>('/v1/checkout/pago-movil/key', { sessionReference, ...payer });

/** The C2P debit with the key the bank sent: an attempt like a card charge, one Idempotency-Key per attempt. */
export const chargePagoMovil = (sessionReference: string, payer: PagoMovilPayer, key: string, idempotencyKey: string) =>
  post<ChargeResult>('/v1/checkout/pago-movil/charge', { sessionReference, ...payer, key }, idempotencyKey);
