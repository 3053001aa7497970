/**
 * What a rejected charge tells the buyer. errorCode is the processor's code (or one of ours for rejections that
 * never reached the bank); declineReason is the buyer-facing Spanish text, which may change: merchants branch
 * on errorCode. Pure.
 */

/** Codes of the banks' card protocol that the sandbox bank also returns; see the README's test card table. */
export const PROCESSOR_CODES = {
  DO_NOT_HONOR: '0005',
  INSUFFICIENT_FUNDS: '0051',
  WRONG_CVV: '0082',
  PROCESSOR_ERROR: '0096',
  /** Soft decline of a merchant-initiated charge: the gateway wants the customer to verify the card again. */
  AUTHENTICATION_REQUIRED: '0065',
  EXPIRED_CARD: '0120',
} as const;

/** Codes the service assigns itself, when the rejection did not come from the bank's answer to the charge. */
export const SERVICE_CODES = {
  INVALID_PAYMENT_DATA: 'invalid_payment_data',
  OTP_ATTEMPTS_EXCEEDED: 'otp_attempts_exceeded',
  OTP_EXPIRED: 'otp_expired',
  PROCESSOR_UNAVAILABLE: 'processor_unavailable',
  PAYMENT_CANCELLED: 'payment_cancelled',
} as const;

const REASONS: Record<string, string> = {
  [PROCESSOR_CODES.DO_NOT_HONOR]: 'Tu banco rechazó el pago. Prueba con otra tarjeta o comunícate con tu banco.',
  [PROCESSOR_CODES.INSUFFICIENT_FUNDS]: 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.',
  [PROCESSOR_CODES.WRONG_CVV]: 'El código de seguridad (CVV) no es correcto. Revísalo e inténtalo de nuevo.',
  [PROCESSOR_CODES.PROCESSOR_ERROR]: 'No pudimos procesar el pago en este momento. Inténtalo de nuevo en unos minutos.',
  [PROCESSOR_CODES.EXPIRED_CARD]: 'La tarjeta está vencida. Prueba con otra tarjeta.',
  [PROCESSOR_CODES.AUTHENTICATION_REQUIRED]: 'Tu banco pide verificar la tarjeta de nuevo. Paga una vez con ella para reactivarla.',
  [SERVICE_CODES.INVALID_PAYMENT_DATA]: 'Faltan datos del pago o no son válidos. Revisa el formulario e inténtalo de nuevo.',
  [SERVICE_CODES.OTP_ATTEMPTS_EXCEEDED]: 'Ingresaste un código de verificación incorrecto demasiadas veces.',
  [SERVICE_CODES.OTP_EXPIRED]: 'El tiempo para confirmar el código de verificación terminó.',
  [SERVICE_CODES.PROCESSOR_UNAVAILABLE]: 'No pudimos comunicarnos con el banco. Inténtalo de nuevo en unos minutos.',
  [SERVICE_CODES.PAYMENT_CANCELLED]: 'El comercio canceló este pago.',
};

const FALLBACK = {
  declined: REASONS[PROCESSOR_CODES.DO_NOT_HONOR]!,
  failed: REASONS[PROCESSOR_CODES.PROCESSOR_ERROR]!,
};

/**
 * @example
 * declineReason('0051', 'declined') // 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.'
 */
export const declineReason = (code: string, outcome: 'declined' | 'failed'): string => REASONS[code] ?? FALLBACK[outcome];
