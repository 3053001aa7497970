/**
 * Every text the buyer reads that the page decides itself, in Spanish for Venezuelan buyers. Decline reasons are
 * not here: they come from the transaction (declineReason), written by the service.
 */
import { PAYMENT_KEYS_PER_PHONE_PER_DAY, PAYMENT_KEYS_PER_SESSION } from '../../shared/domain/pago-movil-verification.ts';
import type { OtpFactor } from '../../shared/domain/otp-factor.ts';
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
  accountTypeMissing: 'Elige si la tarjeta es de una cuenta corriente o de ahorros.',
  bankMissing: 'Elige el banco de tu cuenta.',
  phoneInvalid: 'Escribe los 7 dígitos de tu teléfono, después del código (0414, 0424...).',
  payerDocumentInvalid: 'El número de cédula o RIF debe tener de 5 a 10 dígitos, sin letras.',
  paymentKeyInvalid: 'Escribe los 8 dígitos de la clave de pago que te envió tu banco.',
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

/**
 * What the code step asks, from what the bank said it wants (nextAction.factor). No factor: the bank sent a code.
 * A factor whose meaning no source gives is named by the bank's own label, without saying where it comes from.
 */
export interface OtpWording {
  intro: string;
  label: string;
  /** The help line under the field; null where there is nothing sourced to add. */
  help: string | null;
  missing: string;
  /** The thing asked, for the sentences about a wrong entry ("la clave telefónica"). */
  noun: string;
}

export function otpWording(factor: OtpFactor | null): OtpWording {
  if (!factor) return { intro: 'Tu banco te envió un código de verificación. Escríbelo para confirmar el pago.', label: 'Código de verificación', help: null, missing: FIELD_ERRORS.otpMissing, noun: 'el código' };
  const digits = factor.length && factor.inputType === 'numeric' ? `de ${factor.length} dígitos ` : '';
  if (factor.kind === 'phone_key') {
    return {
      intro: `Escribe tu clave telefónica de ${factor.bankName} para confirmar el pago. No llega por mensaje: es una clave que ya tienes.`,
      label: `Clave telefónica de ${factor.bankName}`,
      help: `Es la clave ${digits}que usas para confirmar operaciones por teléfono con ${factor.bankName}.`,
      missing: 'Escribe tu clave telefónica.',
      noun: 'la clave telefónica',
    };
  }
  const label = factor.label ?? 'Clave de confirmación';
  return {
    intro: `${factor.bankName} pide un dato más para confirmar el pago: ${label.toLowerCase()}.`,
    label,
    help: digits ? `${factor.bankName} la pide ${digits.trim()}.` : null,
    missing: `Escribe: ${label.toLowerCase()}.`,
    noun: 'el dato',
  };
}

/** After a wrong entry; entries is null when the page does not know how many are left. */
export function otpEntriesLeft(entries: number | null, noun = 'el código'): string {
  const wrong = `${capitalize(noun)} no es correct${noun.startsWith('la ') ? 'a' : 'o'}.`;
  return `${wrong} ${entries === null ? 'Revisa e inténtalo de nuevo.' : entriesText(entries, noun)}`;
}

/** After the bank refused the entry: it does not say whether the clave or the account type was wrong. */
export function otpRefused(entries: number | null, noun: string, bankName: string): string {
  return `${bankName} no aceptó ${noun} o el tipo de cuenta. Revisa los dos.${entries === null ? '' : ` ${entriesText(entries, noun)}`}`;
}

const entriesText = (entries: number, noun: string): string =>
  entries === 1 ? `Te queda 1 intento para escribir ${noun}.` : `Te quedan ${entries} intentos para escribir ${noun}.`;

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The code step's standing: the entries left, and what remains of the session if this attempt ends unconfirmed
 * (`attemptsAfter`: null when the page knows no bound; `lastAttempt`: the session's own warning).
 */
export function otpStanding(entries: number | null, noun: string, attemptsAfter: number | null, lastAttempt: boolean): string {
  const after =
    attemptsAfter === 0 || (attemptsAfter === null && lastAttempt)
      ? 'Es el último intento de pago de esta sesión.'
      : attemptsAfter === null
        ? null
        : `Si no se confirma, podrás intentarlo ${attemptsAfter === 1 ? '1 vez más' : `${attemptsAfter} veces más`} con otra tarjeta.`;
  return [entries === null ? null : entriesText(entries, noun), after].filter(Boolean).join(' ');
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

/** The page's heading for the method picked, as buyers in Venezuela call it. */
export const METHOD_HEADINGS = { card: 'Pago con tarjeta', pago_movil_c2p: 'Pago Móvil' } as const;
export const PAGO_MOVIL_LABEL = 'Pago Móvil';
export const KEY_SENT = 'Te enviamos la clave por SMS. Escríbela abajo para pagar.';
export const keysLeft = (keys: number): string =>
  keys === 0 ? 'Ya no puedes pedir más claves en este pago: usa la última que recibiste.' : keys === 1 ? 'Puedes pedir 1 clave más.' : `Puedes pedir ${keys} claves más.`;
/** 429 payment_key_limit: the session's or the phone's bound (docs/pago-movil.md); either way the last key still works. */
export const KEY_LIMIT = `Llegaste al límite de claves de pago (${PAYMENT_KEYS_PER_SESSION} por pago y ${PAYMENT_KEYS_PER_PHONE_PER_DAY} por teléfono al día). Usa la última clave que recibiste.`;
export const REQUESTING_KEY = 'Pidiendo la clave a tu banco…';
