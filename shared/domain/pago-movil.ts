/**
 * Pago móvil's own facts, shared by every bank that offers it: the Venezuelan bank codes, the phone and cédula forms
 * the banks take, and how a phone is shown to anyone but the merchant. Pure: no I/O, no AWS.
 * Sources: ../shared/reference/pago-movil.md §2 (bank codes: no primary BCV/SUDEBAN list exists; these agree across
 * independent third-party sources; 0116 BOD was absorbed by BNC and is not listed).
 */
import type { DocumentType } from './prefill.ts';

/** The banks of the pago móvil network, by their 4-digit code. */
export const VENEZUELAN_BANKS = {
  '0102': 'Banco de Venezuela',
  '0104': 'Venezolano de Crédito',
  '0105': 'Mercantil',
  '0108': 'BBVA Provincial',
  '0114': 'Bancaribe',
  '0115': 'Exterior',
  '0128': 'Caroní',
  '0134': 'Banesco',
  '0137': 'Sofitasa',
  '0138': 'Banco Plaza',
  '0146': 'Bangente',
  '0151': 'BFC',
  '0156': '100% Banco',
  '0157': 'DelSur',
  '0163': 'Banco del Tesoro',
  '0166': 'Agrícola',
  '0168': 'Bancrecer',
  '0169': 'Mi Banco',
  '0171': 'Activo',
  '0172': 'Bancamiga',
  '0173': 'BID',
  '0174': 'Banplus',
  '0175': 'BDT',
  '0177': 'Banfanb',
  '0178': 'N58',
  '0191': 'BNC',
} as const;

export type BankCode = keyof typeof VENEZUELAN_BANKS;
export const BANK_CODES = Object.keys(VENEZUELAN_BANKS) as [BankCode, ...BankCode[]];

export const isBankCode = (value: string): value is BankCode => Object.hasOwn(VENEZUELAN_BANKS, value);

/** The mobile operators' prefixes (Movilnet 0416/0426, Movistar 0414/0424, Digitel 0412). */
export const MOBILE_PREFIXES = ['0412', '0414', '0416', '0424', '0426'] as const;

/**
 * A Venezuelan mobile phone in its national form (04141234567), from what a buyer types: the national form, the
 * international one (+58 414 123 4567, 584141234567) or the number without its 0 (4141234567), with spaces, dots,
 * dashes or brackets. Null when it is none of those or its operator prefix is not a mobile one.
 *
 * @example
 * nationalPhone('+58 414-123.45.67') // '04141234567'
 * nationalPhone('0212 555 1234')     // null (a landline)
 */
export function nationalPhone(typed: string): string | null {
  const digits = typed.replace(/[\s.\-()]/g, '').replace(/^\+/, '');
  if (!/^\d+$/.test(digits)) return null;
  const national = digits.length === 12 && digits.startsWith('58') ? `0${digits.slice(2)}` : digits.length === 10 ? `0${digits}` : digits;
  return national.length === 11 && (MOBILE_PREFIXES as readonly string[]).includes(national.slice(0, 4)) ? national : null;
}

/** The international form without '+' that Mercantil takes (584141234567), from the national one. */
export const internationalPhone = (national: string): string => `58${national.slice(1)}`;

/**
 * A phone as shown to anyone but the merchant (events, logs, answers to the buyer's page): its last four digits.
 *
 * @example
 * maskedPhone('04141234567') // '*******4567'
 */
export const maskedPhone = (national: string): string => `${'*'.repeat(Math.max(0, national.length - 4))}${national.slice(-4)}`;

/** The Caracas day (UTC-4 all year, no daylight saving) of an instant, YYYY-MM-DD: the day pago móvil banks search by. */
export const caracasDay = (at: Date): string => new Date(at.getTime() - 4 * 3_600_000).toISOString().slice(0, 10);

/**
 * Null when a payer's document number is fine for pago móvil, else what is wrong with it: 5 to 10 digits for a
 * cédula or RIF (V, E, J, G), 5 to 12 letters and digits for a passport (P). The id is cleaned first (cleanDocumentId).
 */
export function payerDocumentIssue(type: DocumentType, id: string): string | null {
  if (type === 'P') return /^[A-Z0-9]{5,12}$/.test(id) ? null : 'A passport number is 5 to 12 letters and digits.';
  return /^\d{5,10}$/.test(id) ? null : 'A cédula or RIF number is 5 to 10 digits, without the letter.';
}

/** The RIF letter's value in its check digit (reference §6, after python-stdnum's ve/rif.py). */
const RIF_LETTER_VALUES: Record<string, number> = { V: 4, E: 8, J: 12, P: 16, G: 20 };
const RIF_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2];

/**
 * A RIF (Venezuelan tax id) in its usual written form (J-40724274-1) when its check digit is right, else null. Typed
 * with or without dashes, dots or spaces, in either case.
 *
 * @example
 * validRif('j407242741')   // 'J-40724274-1'
 * validRif('J-40724274-2') // null (wrong check digit)
 */
export function validRif(typed: string): string | null {
  const compact = typed.replace(/[\s.\-]/g, '').toUpperCase();
  const match = /^([VEJPG])(\d{8})(\d)$/.exec(compact);
  if (!match) return null;
  const [, letter, digits, check] = match as unknown as [string, string, string, string];
  const sum = RIF_LETTER_VALUES[letter]! + [...digits].reduce((total, digit, i) => total + Number(digit) * RIF_WEIGHTS[i]!, 0);
  return '00987654321'[sum % 11] === check ? `${letter}-${digits}-${check}` : null;
}
