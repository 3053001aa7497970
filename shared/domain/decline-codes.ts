/**
 * What a rejected charge tells the buyer. errorCode is the processor's code (or one of ours for rejections that
 * never reached the bank); declineReason is the buyer-facing Spanish text, which may change: merchants branch
 * on errorCode. Pure.
 */

/** Codes of the banks' card protocol that the sandbox bank also returns; see the test card table of docs/payments.md. */
export const PROCESSOR_CODES = {
  DO_NOT_HONOR: '0005',
  INSUFFICIENT_FUNDS: '0051',
  WRONG_CVV: '0082',
  PROCESSOR_ERROR: '0096',
  /** Soft decline of a merchant-initiated charge: the gateway wants the customer to verify the card again. */
  AUTHENTICATION_REQUIRED: '0065',
  EXPIRED_CARD: '0120',
  /** Lost and stolen cards (the issuer asks to keep them): told to the merchant, never to the buyer. */
  LOST_CARD: '0041',
  STOLEN_CARD: '0043',
} as const;

/** Codes the service assigns itself, when the rejection did not come from the bank's answer to the charge. */
export const SERVICE_CODES = {
  INVALID_PAYMENT_DATA: 'invalid_payment_data',
  OTP_ATTEMPTS_EXCEEDED: 'otp_attempts_exceeded',
  OTP_EXPIRED: 'otp_expired',
  /** The buyer left the code step to pay another way (POST /v1/checkout/otp with abandon): a failed attempt, as Stripe counts an abandoned authentication. */
  OTP_ABANDONED: 'otp_abandoned',
  PROCESSOR_UNAVAILABLE: 'processor_unavailable',
  PAYMENT_CANCELLED: 'payment_cancelled',
  /** The card was declined too often at this merchant today (card-declines.ts): refused without asking the bank. */
  CARD_DECLINES_EXCEEDED: 'card_declines_exceeded',
} as const;

/**
 * The one sentence of a decline that would help a card tester if told as it is: do not honor, lost, stolen, a code
 * without a known meaning. It says neither what the bank thinks of the card nor that the card is live.
 */
export const GENERIC_DECLINE_REASON = 'Tu banco rechazó el pago. Prueba con otra tarjeta o comunícate con tu banco.';

/**
 * Every text here may be shown to the buyer (forBuyer): a code whose meaning would help a card tester reads
 * GENERIC_DECLINE_REASON, as Stripe advises for lost_card, stolen_card and the like (docs/payments.md).
 */
const REASONS: Record<string, string> = {
  [PROCESSOR_CODES.DO_NOT_HONOR]: GENERIC_DECLINE_REASON,
  [PROCESSOR_CODES.LOST_CARD]: GENERIC_DECLINE_REASON,
  [PROCESSOR_CODES.STOLEN_CARD]: GENERIC_DECLINE_REASON,
  [PROCESSOR_CODES.INSUFFICIENT_FUNDS]: 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.',
  [PROCESSOR_CODES.WRONG_CVV]: 'El código de seguridad (CVV) no es correcto. Revísalo e inténtalo de nuevo.',
  [PROCESSOR_CODES.PROCESSOR_ERROR]: 'No pudimos procesar el pago en este momento. Inténtalo de nuevo en unos minutos.',
  [PROCESSOR_CODES.EXPIRED_CARD]: 'La tarjeta está vencida. Prueba con otra tarjeta.',
  [PROCESSOR_CODES.AUTHENTICATION_REQUIRED]: 'Tu banco pide verificar la tarjeta de nuevo. Paga una vez con ella para reactivarla.',
  [SERVICE_CODES.INVALID_PAYMENT_DATA]: 'Faltan datos del pago o no son válidos. Revisa el formulario e inténtalo de nuevo.',
  [SERVICE_CODES.OTP_ATTEMPTS_EXCEEDED]: 'Ingresaste un código de verificación incorrecto demasiadas veces.',
  [SERVICE_CODES.OTP_EXPIRED]: 'El tiempo para confirmar el código de verificación terminó.',
  [SERVICE_CODES.OTP_ABANDONED]: 'Elegiste pagar con otra tarjeta: el pago anterior no se confirmó.',
  [SERVICE_CODES.PROCESSOR_UNAVAILABLE]: 'No pudimos comunicarnos con el banco. Inténtalo de nuevo en unos minutos.',
  [SERVICE_CODES.PAYMENT_CANCELLED]: 'El comercio canceló este pago.',
  [SERVICE_CODES.CARD_DECLINES_EXCEEDED]: 'Esta tarjeta fue rechazada varias veces hoy en este comercio. Prueba con otra tarjeta.',
};

const FALLBACK = {
  declined: GENERIC_DECLINE_REASON,
  failed: REASONS[PROCESSOR_CODES.PROCESSOR_ERROR]!,
};

/**
 * @example
 * declineReason('0051', 'declined') // 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.'
 */
export const declineReason = (code: string, outcome: 'declined' | 'failed'): string => REASONS[code] ?? FALLBACK[outcome];

/**
 * The codes the checkout shows as they are: about the buyer's own steps (the form, the OTP, the bank's reachability,
 * the merchant's cancel), none of which says anything about the card. A card tester learns nothing from them.
 */
const BUYER_CODES: ReadonlySet<string> = new Set([
  SERVICE_CODES.INVALID_PAYMENT_DATA,
  SERVICE_CODES.OTP_ATTEMPTS_EXCEEDED,
  SERVICE_CODES.OTP_EXPIRED,
  SERVICE_CODES.OTP_ABANDONED,
  SERVICE_CODES.PROCESSOR_UNAVAILABLE,
  SERVICE_CODES.PAYMENT_CANCELLED,
]);

/** The generic codes the checkout answers in place of the bank's (or of our card_declines_exceeded). */
export const BUYER_DECLINED = 'card_declined';
export const BUYER_FAILED = 'processing_error';

/**
 * A transaction as the buyer's browser sees it, by Stripe's rule: the buyer is told what they can fix, and nothing
 * that helps a card tester. errorCode is generic (`card_declined`, `processing_error`); a decline keeps its
 * declineReason, which every connector's table writes as the generic sentence for lost, stolen, fraudulent and
 * unknown codes (REASONS above, stripe/outcomes.ts, mercantil/outcomes.ts); a failure reads "try again". Our own
 * per-card refusal (card_declines_exceeded) reads the generic sentence: the bound is not announced. The bank's exact
 * code stays in what the merchant reads (transaction, session, webhook events), where the spec puts it.
 *
 * @example
 * forBuyer({ status: 'declined', errorCode: '0051', declineReason: 'La tarjeta no tiene fondos suficientes. ...' })
 * // errorCode 'card_declined', declineReason unchanged
 */
export function forBuyer<T extends { status: unknown; errorCode?: unknown; declineReason?: unknown }>(t: T): T {
  if (typeof t.errorCode !== 'string' || BUYER_CODES.has(t.errorCode)) return t;
  if (t.status === 'failed') return { ...t, errorCode: BUYER_FAILED, declineReason: FALLBACK.failed };
  const told = t.errorCode !== SERVICE_CODES.CARD_DECLINES_EXCEEDED && typeof t.declineReason === 'string';
  return { ...t, errorCode: BUYER_DECLINED, declineReason: told ? t.declineReason : GENERIC_DECLINE_REASON };
}
