/**
 * Every text the buyer reads that the page decides itself, in Spanish for Venezuelan buyers. Decline reasons are
 * not here: they come from the transaction (declineReason), written by the service.
 */
import type { CardFunding } from '../../shared/domain/payment-data.ts';
import type { ClosedReason } from '../../shared/domain/session-state.ts';

/** Amounts are written for Venezuelan buyers, whatever the browser's own locale: `Bs. 1.250,50`. */
export const AMOUNT_LOCALE = 'es-VE';

export const FIELD_ERRORS = {
  cardNumberMissing: 'Escribe el número de la tarjeta.',
  cardNumberInvalid: 'El número de la tarjeta no es válido. Revísalo.',
  expMonthInvalid: 'Escribe el mes de vencimiento con dos dígitos (01 a 12).',
  expYearInvalid: 'Escribe el año de vencimiento (por ejemplo, 2030).',
  cardExpired: 'La tarjeta está vencida. Revisa la fecha o usa otra tarjeta.',
  cvvInvalid: 'Escribe el código de seguridad: 3 dígitos (4 en American Express).',
  holderNameMissing: 'Escribe el nombre del titular como aparece en la tarjeta.',
  holderNameTooLong: 'El nombre del titular puede tener como máximo 80 caracteres.',
  documentIdMissing: 'Escribe el número de tu documento de identidad.',
  documentIdInvalid: 'El número de documento debe tener de 5 a 12 dígitos, sin letras.',
  passportInvalid: 'El número de pasaporte debe tener de 5 a 12 letras o números.',
  otpMissing: 'Escribe el código que te envió tu banco.',
} as const;

export const FORM_HAS_ERRORS = 'Revisa los datos marcados en el formulario.';

export const CLOSED_TITLES = {
  completed: 'Este pago ya fue realizado',
  expired: 'El tiempo para pagar terminó',
  max_failures_reached: 'Se agotaron los intentos de pago',
  merchant_request: 'El comercio canceló este pago',
  not_found: 'No encontramos este pago',
} as const satisfies Record<ClosedReason | 'completed' | 'not_found', string>;

export const CLOSED_TEXTS: Record<keyof typeof CLOSED_TITLES, string> = {
  completed: 'No hace falta que pagues de nuevo.',
  expired: 'Esta sesión de pago venció. Pide al comercio un nuevo enlace para pagar.',
  max_failures_reached: 'Esta sesión ya no acepta más intentos. Pide al comercio un nuevo enlace para pagar.',
  merchant_request: 'Esta sesión de pago ya no está disponible. Si aún quieres pagar, pide al comercio un nuevo enlace.',
  not_found: 'Revisa que el enlace esté completo o pide al comercio uno nuevo.',
};

/** Refusals of the charge and OTP operations (409/410), by the API's error code. */
export const REFUSALS: Record<string, string> = {
  charge_in_flight: 'Ya hay un pago en curso en esta sesión. Espera su resultado antes de intentarlo de nuevo.',
  otp_not_requested: 'Esta sesión ya no espera un código de verificación.',
};

export const REQUEST_PROBLEMS = {
  offline: 'No pudimos comunicarnos con el servidor. Revisa tu conexión a internet e inténtalo de nuevo.',
  tooMany: 'Hubo demasiados intentos en poco tiempo. Espera un momento e inténtalo de nuevo.',
  unavailable: 'No pudimos procesar el pago en este momento. Inténtalo de nuevo en unos minutos.',
  rejectedData: 'Faltan datos del pago o no son válidos. Revisa el formulario e inténtalo de nuevo.',
} as const;

/** After a wrong code; entries is null when the page does not know how many are left. */
export function otpEntriesLeft(entries: number | null): string {
  if (entries === null) return 'El código no es correcto. Revísalo e inténtalo de nuevo.';
  return entries === 1 ? 'El código no es correcto. Te queda 1 intento para escribirlo.' : `El código no es correcto. Te quedan ${entries} intentos para escribirlo.`;
}

export const payLabel = (amount: string): string => `Pagar ${amount}`;
export const PROCESSING_LABEL = 'Procesando el pago…';
export const storedCardLabel = (brand: string, lastFour: string): string => `${brand} terminada en ${lastFour}`;
export const FUNDING_LABELS: Record<CardFunding, string> = { debit: 'Débito', credit: 'Crédito', prepaid: 'Prepagada' };
export const APPROVED_TEXT = 'Guarda o imprime este comprobante.';
export const APPROVED_NO_RETURN = 'Guarda o imprime este comprobante; después puedes cerrar esta página.';
export const ALREADY_PAID_TITLE = 'Este pago ya fue realizado';
export const ALREADY_PAID_TEXT = 'No hace falta que pagues de nuevo. Este es el comprobante.';
export const redirectIn = (seconds: number): string =>
  seconds === 1 ? 'Te llevaremos de vuelta a la tienda en 1 segundo.' : `Te llevaremos de vuelta a la tienda en ${seconds} segundos.`;
export const REDIRECT_STOPPED = 'Te quedas en esta página. Vuelve a la tienda cuando quieras.';
export const pageTitle = (businessName: string): string => `Pago a ${businessName}`;
