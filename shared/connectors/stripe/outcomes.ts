/**
 * Stripe's answers as the port's outcomes. errorCode is Stripe's own code (decline_code when the issuer gave one,
 * else the error's code); the buyer reads a Spanish sentence from the table below. Pure: no I/O.
 */
import type Stripe from 'stripe';
import { GENERIC_DECLINE_REASON } from '../../domain/decline-codes.ts';
import { CARD_FUNDINGS } from '../../domain/payment-data.ts';
import type { GatewayOutcome, RefundOutcome } from '../../gateways/payment-gateway.ts';

/** Codes the connector assigns itself where Stripe's answer carries none. */
export const STRIPE_CONNECTOR_CODES = {
  /** The merchant's secret key is missing, malformed or of the other mode: nothing was sent. */
  CREDENTIALS_INVALID: 'stripe_credentials_invalid',
  /** Stripe refused the key (HTTP 401): its error object names no code. */
  AUTHENTICATION_FAILED: 'stripe_authentication_failed',
  /** Stripe has no OTP step and no charge of a stored card without the buyer. */
  NOT_SUPPORTED: 'stripe_not_supported',
  /** Stripe answered something that is neither a PaymentIntent, a refund nor an error object. */
  UNEXPECTED_ANSWER: 'stripe_unexpected_answer',
} as const;

/**
 * Issuer codes that say "try again", not "this card cannot pay": failed, like an error of the processor. Every other
 * card_error is a decline.
 */
const TRANSIENT_CARD_CODES = new Set(['processing_error', 'issuer_not_available', 'try_again_later', 'reenter_transaction']);

/** The service's one generic sentence: a masked Stripe code reads as our own per-card refusal does. */
const GENERIC_DECLINE = GENERIC_DECLINE_REASON;
const TRY_AGAIN = 'No pudimos procesar el pago en este momento. Inténtalo de nuevo en unos minutos.';

/**
 * The buyer's sentence per Stripe code (docs.stripe.com/declines/codes). Lost, stolen, fraudulent and similar cards
 * get the generic sentence, as Stripe advises, so the page tells a fraudster nothing (forBuyer shows these texts).
 */
export const STRIPE_DECLINE_REASONS: Record<string, string> = {
  generic_decline: GENERIC_DECLINE,
  card_declined: GENERIC_DECLINE,
  do_not_honor: GENERIC_DECLINE,
  do_not_try_again: GENERIC_DECLINE,
  call_issuer: 'Tu banco rechazó el pago. Comunícate con tu banco para más información.',
  insufficient_funds: 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.',
  withdrawal_count_limit_exceeded: 'La tarjeta superó su límite de uso. Prueba con otra tarjeta.',
  card_velocity_exceeded: 'La tarjeta superó su límite de uso. Prueba con otra tarjeta.',
  expired_card: 'La tarjeta está vencida. Prueba con otra tarjeta.',
  invalid_expiry_month: 'El mes de vencimiento no es válido. Revísalo e inténtalo de nuevo.',
  invalid_expiry_year: 'El año de vencimiento no es válido. Revísalo e inténtalo de nuevo.',
  incorrect_cvc: 'El código de seguridad (CVC) no es correcto. Revísalo e inténtalo de nuevo.',
  invalid_cvc: 'El código de seguridad (CVC) no es correcto. Revísalo e inténtalo de nuevo.',
  incorrect_number: 'El número de la tarjeta no es correcto. Revísalo e inténtalo de nuevo.',
  invalid_number: 'El número de la tarjeta no es correcto. Revísalo e inténtalo de nuevo.',
  card_not_supported: 'Esta tarjeta no admite este tipo de pago. Prueba con otra tarjeta.',
  currency_not_supported: 'Esta tarjeta no admite pagos en dólares. Prueba con otra tarjeta.',
  authentication_required: 'Tu banco pide autenticar este pago y este comercio no puede hacerlo. Prueba con otra tarjeta.',
  lost_card: GENERIC_DECLINE,
  stolen_card: GENERIC_DECLINE,
  fraudulent: GENERIC_DECLINE,
  pickup_card: GENERIC_DECLINE,
  restricted_card: GENERIC_DECLINE,
  security_violation: GENERIC_DECLINE,
  merchant_blacklist: GENERIC_DECLINE,
  processing_error: TRY_AGAIN,
  issuer_not_available: TRY_AGAIN,
  try_again_later: TRY_AGAIN,
  reenter_transaction: TRY_AGAIN,
};

/**
 * @example
 * stripeDeclineReason('insufficient_funds', 'declined') // 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.'
 */
export const stripeDeclineReason = (code: string, outcome: 'declined' | 'failed'): string => STRIPE_DECLINE_REASONS[code] ?? (outcome === 'declined' ? GENERIC_DECLINE : TRY_AGAIN);

/** The error object of a Stripe answer, or null when the body is not `{"error": {...}}`. */
export function stripeError(body: Record<string, unknown>): Stripe.StripeRawError | null {
  const error = body.error;
  return error && typeof error === 'object' && !Array.isArray(error) ? (error as Stripe.StripeRawError) : null;
}

/** The fields of Stripe's error object the mapping reads: an answer's `error`, or an intent's last_payment_error. */
export type StripeErrorFields = Pick<Stripe.StripeRawError, 'code' | 'decline_code' | 'message'> & { type?: string };

/** Stripe's code for an error: the issuer's decline_code first, then the error's code, then its type. */
export const stripeCode = (error: StripeErrorFields, httpStatus: number): string =>
  error.decline_code ?? error.code ?? (httpStatus === 401 ? STRIPE_CONNECTOR_CODES.AUTHENTICATION_FAILED : (error.type ?? STRIPE_CONNECTOR_CODES.UNEXPECTED_ANSWER));

/**
 * A 4xx answer to a charge (or the last_payment_error of an intent): a card_error is the card's answer, declined
 * unless the issuer only asked to try again; anything else (invalid_request_error, idempotency_error, 401, 429)
 * failed. 5xx and api_error are not judged here: the charge may have happened, the caller reads Stripe's record.
 *
 * @example
 * chargeErrorOutcome(402, { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' })
 * // { kind: 'declined', code: 'insufficient_funds', detail: 'Your card has insufficient funds.', reason: 'La tarjeta no tiene fondos suficientes. ...' }
 */
export function chargeErrorOutcome(httpStatus: number, error: StripeErrorFields): { kind: 'declined' | 'failed'; code: string; detail: string; reason: string } {
  const code = stripeCode(error, httpStatus);
  const kind = error.type === 'card_error' && !TRANSIENT_CARD_CODES.has(code) ? 'declined' : 'failed';
  return { kind, code, detail: error.message ?? `Stripe answered HTTP ${httpStatus}.`, reason: stripeDeclineReason(code, kind) };
}

/**
 * A captured intent as the port's approval: the PaymentIntent's id for the merchant, and from its charge (expanded)
 * the card's funding and the issuer's authorization_code, which the buyer's bank knows the payment by.
 */
export function approvedOutcome(intent: Stripe.PaymentIntent): Extract<GatewayOutcome, { kind: 'approved' }> {
  const card = intent.latest_charge && typeof intent.latest_charge === 'object' ? intent.latest_charge.payment_method_details?.card : null;
  const funding = CARD_FUNDINGS.find((f) => f === card?.funding);
  return {
    kind: 'approved',
    processorReference: intent.id,
    ...(funding ? { funding } : {}),
    ...(card?.authorization_code ? { authorizationCode: card.authorization_code } : {}),
  };
}

/** A Stripe refund object's status as the port's refund outcome. */
export function refundOutcome(refund: Stripe.Refund): RefundOutcome {
  switch (refund.status) {
    case 'succeeded':
      return { kind: 'succeeded', processorReference: refund.id };
    case 'pending':
    case 'requires_action':
      return { kind: 'pending' };
    default:
      return { kind: 'failed', code: refund.failure_reason ?? refund.status ?? STRIPE_CONNECTOR_CODES.UNEXPECTED_ANSWER, detail: `Stripe's refund ${refund.id} is ${refund.status}.` };
  }
}
