/**
 * What the buyer types into the card form, checked before it is sent: every request that reaches the charge API
 * is an attempt that counts against the session's limit, so obvious mistakes are caught here first. The rules
 * are the API's own (shared/domain), bundled into the page.
 */
import { cardBrand, luhnValid } from '../../shared/domain/payment-data.ts';
import { CARDHOLDER_NAME_MAX, characterLength, cleanDocumentId, cleanName, documentIdFormatIssue, type DocumentType } from '../../shared/domain/prefill.ts';
import { FIELD_ERRORS } from './messages.ts';

export const digitsOf = (value: string): string => value.replace(/\D/g, '');

const BRAND_NAMES: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', maestro: 'Maestro', amex: 'American Express' };

/** The name of a brand id (visa, mastercard, maestro, amex) for the buyer; unknown ids are shown as they come. */
export const brandLabel = (brand: string): string => BRAND_NAMES[brand] ?? (brand === 'unknown' ? '' : brand);

/** The brand of a number being typed, for the buyer, or '' while it cannot be told. */
export const brandName = (number: string): string => brandLabel(cardBrand(digitsOf(number)));

/** Groups of four (American Express: 4-6-5), as printed on the card. */
export function formatCardNumber(value: string): string {
  const digits = digitsOf(value).slice(0, 19);
  const groups = cardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** `luhn` false: the network's own test cards may fail Luhn in test mode (session luhnCheck); the server still checks the rest. */
export function cardNumberIssue(value: string, luhn = true): string | null {
  const digits = digitsOf(value);
  if (digits.length === 0) return FIELD_ERRORS.cardNumberMissing;
  if (digits.length < 12 || digits.length > 19 || (luhn && !luhnValid(digits))) return FIELD_ERRORS.cardNumberInvalid;
  return null;
}

export function expMonthIssue(value: string): string | null {
  const month = Number(value);
  return /^\d{1,2}$/.test(value) && month >= 1 && month <= 12 ? null : FIELD_ERRORS.expMonthInvalid;
}

/** Two-digit years are this century's (2030 for "30"), as printed on cards. */
export const fullYear = (value: string): number => (value.length === 2 ? 2000 + Number(value) : Number(value));

/** now: the server's time, which decides what is past (a card is valid through the end of its month). */
export function expYearIssue(yearValue: string, monthValue: string, now: number): string | null {
  if (!/^(\d{2}|\d{4})$/.test(yearValue)) return FIELD_ERRORS.expYearInvalid;
  const today = new Date(now);
  const year = fullYear(yearValue);
  const month = Number(monthValue);
  if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month >= 1 && month < today.getUTCMonth() + 1)) return FIELD_ERRORS.cardExpired;
  return null;
}

export const cvvIssue = (value: string, brand: string): string | null =>
  (brand === 'amex' ? /^\d{4}$/ : /^\d{3,4}$/).test(value) ? null : FIELD_ERRORS.cvvInvalid;

export function holderNameIssue(value: string): string | null {
  const name = cleanName(value);
  if (name.length === 0) return FIELD_ERRORS.holderNameMissing;
  if (characterLength(name) > CARDHOLDER_NAME_MAX) return FIELD_ERRORS.holderNameTooLong;
  return null;
}

/** The spec's format of each document type (digits for V/E/J/G, letters and digits for P), after removing separators. */
export function documentIdIssue(type: DocumentType, value: string): string | null {
  const id = cleanDocumentId(value);
  if (id.length === 0) return FIELD_ERRORS.documentIdMissing;
  if (documentIdFormatIssue(type, id) === null) return null;
  return type === 'P' ? FIELD_ERRORS.passportInvalid : FIELD_ERRORS.documentIdInvalid;
}
