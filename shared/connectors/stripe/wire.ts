/**
 * Stripe's wire format: the request bodies the connector sends, typed with the `stripe` package's own declarations
 * (types only: nothing of the SDK is bundled, see docs/connectors.md "## Stripe"), and the form encoding Stripe reads.
 * Pure: no I/O.
 */
import type Stripe from 'stripe';
import type { Currency } from '../../domain/merchant.ts';
import type { PaymentData } from '../../domain/payment-data.ts';

/**
 * The API version every request pins (Stripe-Version header): the one the `stripe` package's declarations describe,
 * so a field the types name is a field Stripe reads. A test keeps it equal to the package's Stripe.API_VERSION.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/** Our references on Stripe's objects: how a PaymentIntent, a card attempt and a refund are found again. */
export const METADATA_KEYS = { session: 'svc_session', transaction: 'svc_transaction', refund: 'svc_refund' } as const;

/**
 * The card hash of payment_method_data. The declarations of PaymentIntentConfirmParams.PaymentMethodData do not list
 * `card` (Stripe wants card numbers to go through Stripe.js); the hash is the one of POST /v1/payment_methods
 * (Stripe.PaymentMethodCreateParams.Card: number, exp_month, exp_year, cvc), which Stripe accepts here only from
 * accounts with raw card data access.
 */
export type ConfirmWithCardParams = Stripe.PaymentIntentConfirmParams & {
  payment_method_data: Stripe.PaymentIntentConfirmParams.PaymentMethodData & { type: 'card'; card: Stripe.PaymentMethodCreateParams.Card };
};

/** Stripe's answer to a failed request: `{"error": {...}}` (docs.stripe.com/api/errors). */
export interface StripeErrorBody {
  error: Stripe.StripeRawError;
}

/**
 * POST /v1/payment_intents: the session's payment, created pending. Manual capture: confirming only authorises,
 * so the payment stays cancellable until the connector captures it on approval.
 *
 * @example
 * createIntentParams({ sessionReference: 'ses_1', amountMinor: 2500, currency: 'USD' })
 * // { amount: 2500, currency: 'usd', capture_method: 'manual', allowed_payment_method_types: ['card'], metadata: { svc_session: 'ses_1' } }
 */
export function createIntentParams(payment: { sessionReference: string; amountMinor: number; currency: Currency }): Stripe.PaymentIntentCreateParams {
  return {
    amount: payment.amountMinor,
    currency: payment.currency.toLowerCase(),
    capture_method: 'manual',
    // Only cards: the checkout collects a card and nothing else. (payment_method_types before this API version.)
    allowed_payment_method_types: ['card'],
    metadata: { [METADATA_KEYS.session]: payment.sessionReference },
  };
}

/**
 * POST /v1/payment_intents/{id}/confirm with the buyer's card. The attempt's transaction reference rides on the
 * PaymentMethod's metadata, where a status read finds which attempt the intent's card belongs to. expand[] brings the
 * PaymentMethod back with the answer instead of its id.
 */
export function confirmParams(transactionReference: string, payment: PaymentData): ConfirmWithCardParams {
  const { card } = payment;
  return {
    payment_method_data: {
      type: 'card',
      card: { number: card.number, exp_month: card.expMonth, exp_year: card.expYear, cvc: card.cvv },
      billing_details: { name: card.holderName },
      metadata: { [METADATA_KEYS.transaction]: transactionReference },
    },
    expand: ['payment_method'],
  };
}

/**
 * POST /v1/payment_intents/{id}/capture: the whole authorised amount, the one capture there will be. The charge comes
 * back expanded: its card details hold the issuer's authorization code and the card's funding, for the receipt.
 */
export const captureParams = (transactionReference: string): Stripe.PaymentIntentCaptureParams => ({
  metadata: { [METADATA_KEYS.transaction]: transactionReference },
  expand: ['latest_charge'],
});

/** GET /v1/payment_intents/{id}: the attempt's card (whose attempt it is) and its charge (the approval's details). */
export const readIntentParams = { expand: ['payment_method', 'latest_charge'] };

/** POST /v1/payment_intents/{id}/cancel when the merchant closes the session before anything was charged. */
export const cancelParams = (): Stripe.PaymentIntentCancelParams => ({ cancellation_reason: 'abandoned' });

/** POST /v1/refunds: a part or all of the captured amount, found again by our refund reference. */
export const refundParams = (paymentIntentId: string, request: { refundReference: string; transactionReference: string; amountMinor: number }): Stripe.RefundCreateParams => ({
  payment_intent: paymentIntentId,
  amount: request.amountMinor,
  metadata: { [METADATA_KEYS.refund]: request.refundReference, [METADATA_KEYS.transaction]: request.transactionReference },
});

/** GET /v1/refunds?payment_intent=...: the intent's refunds, newest first, for a refund status read. */
export const refundListParams = (paymentIntentId: string): Stripe.RefundListParams => ({ payment_intent: paymentIntentId, limit: 100 });

/**
 * The Idempotency-Key of each POST, derived from our references so that a repeat of the same operation is
 * answered by Stripe from its record instead of being done twice. Stripe keys are up to 255 characters.
 */
export const idempotencyKeys = {
  open: (sessionReference: string) => `svc-${sessionReference}-open`,
  confirm: (transactionReference: string) => `svc-${transactionReference}-confirm`,
  capture: (transactionReference: string) => `svc-${transactionReference}-capture`,
  cancel: (sessionReference: string) => `svc-${sessionReference}-cancel`,
  refund: (refundReference: string) => `svc-${refundReference}-refund`,
} as const;

type FormValue = string | number | boolean | null | undefined | FormValue[] | { [key: string]: FormValue };

/**
 * application/x-www-form-urlencoded with Stripe's bracket keys: nested objects as `a[b]=`, arrays by index
 * (`expand[0]=`), as the SDK's own encoder writes them. Undefined is left out; null sends an empty value (Stripe's
 * way of clearing a field).
 *
 * @example
 * formEncode({ amount: 2500, metadata: { svc_session: 'ses_1' } }) // 'amount=2500&metadata%5Bsvc_session%5D=ses_1'
 */
export function formEncode(params: object): string {
  const form = new URLSearchParams();
  const add = (key: string, value: FormValue) => {
    if (value === undefined) return;
    if (value === null || typeof value !== 'object') form.append(key, value === null ? '' : String(value));
    else if (Array.isArray(value)) value.forEach((item, i) => add(`${key}[${i}]`, item));
    else for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
  };
  for (const [key, value] of Object.entries(params)) add(key, value as FormValue);
  return form.toString();
}
