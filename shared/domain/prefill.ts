/**
 * Prefill rules of the spec: what the merchant may suggest for the buyer's form, cleaned before storing.
 * Pure functions: no I/O, no AWS.
 */

export const DOCUMENT_TYPES = ['V', 'E', 'J', 'G', 'P'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface Prefill {
  cardholderName?: string;
  documentType?: DocumentType;
  documentId?: string;
}

export interface PrefillIssue {
  field: 'cardholderName' | 'documentType' | 'documentId';
  message: string;
}

export const CARDHOLDER_NAME_MAX = 80;
export const DOCUMENT_ID_MIN = 5;
export const DOCUMENT_ID_MAX = 12;

// Control (Cc), format (Cf: zero-width, direction marks, BOM), line/paragraph separators and lone surrogates.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const DOCUMENT_SEPARATORS = /[\s.\-_/\\,]/g;

/**
 * Removes invisible and control characters; NFC so that one visible letter counts as one character.
 * Strip first: an invisible character between a letter and its accent would otherwise keep them from composing
 * until a second pass, so the stored name would not be clean and would count one letter as two.
 */
export const stripInvisible = (value: string): string => value.replace(INVISIBLE, '').normalize('NFC');

/** Name: invisible characters removed, whitespace runs collapsed to one space, trimmed. */
export const cleanName = (value: string): string => stripInvisible(value).replace(/\s+/gu, ' ').trim();

/**
 * Document number: separators removed (12.345.678 -> 12345678), NFKC folds full-width digits, upper-cased.
 * NFKC again last: upper-casing can decompose a letter (ΐ) and removing a separator can bring a letter and its
 * accent together, and the stored value must be what a second cleaning would give.
 */
export const cleanDocumentId = (value: string): string =>
  stripInvisible(value).normalize('NFKC').replace(DOCUMENT_SEPARATORS, '').toUpperCase().normalize('NFKC');

/** Document type: tolerant of case and stray spaces ("v " -> "V"); validity is checked separately. */
export const cleanDocumentType = (value: string): string => stripInvisible(value).trim().toUpperCase();

/** Length in characters as a person counts them (code points, not UTF-16 units). */
export const characterLength = (value: string): number => [...value].length;

export function normalisePrefill(input: { cardholderName?: string; documentType?: string; documentId?: string }): {
  cardholderName?: string;
  documentType?: string;
  documentId?: string;
} {
  const out: { cardholderName?: string; documentType?: string; documentId?: string } = {};
  if (input.cardholderName !== undefined) out.cardholderName = cleanName(input.cardholderName);
  if (input.documentType !== undefined) out.documentType = cleanDocumentType(input.documentType);
  if (input.documentId !== undefined) out.documentId = cleanDocumentId(input.documentId);
  return out;
}

/**
 * A prefill that suggests nothing (`{}`) is no prefill: stored and answered as null, like an omitted one. An empty
 * map would also be the one attribute of a session that DynamoDB streams carry as an untyped value.
 */
export const prefillOrNull = <T extends object>(prefill: T): T | null => (Object.keys(prefill).length > 0 ? prefill : null);

const isDocumentType = (value: string): value is DocumentType => (DOCUMENT_TYPES as readonly string[]).includes(value);

/** The spec's format of a document number for its type: digits for V/E/J/G, letters and digits for P. */
export function documentIdFormatIssue(type: DocumentType, id: string): string | null {
  const length = characterLength(id);
  if (length < DOCUMENT_ID_MIN || length > DOCUMENT_ID_MAX) {
    return `documentId must be ${DOCUMENT_ID_MIN} to ${DOCUMENT_ID_MAX} characters after removing separators.`;
  }
  const pattern = type === 'P' ? /^[A-Z0-9]+$/ : /^[0-9]+$/;
  if (!pattern.test(id)) {
    return type === 'P'
      ? 'documentId of a passport (P) may contain only letters and digits.'
      : `documentId of type ${type} may contain only digits.`;
  }
  return null;
}

/** Checks an already normalised prefill; returns the first problem per field, in field order. */
export function prefillIssues(prefill: { cardholderName?: string; documentType?: string; documentId?: string }): PrefillIssue[] {
  const issues: PrefillIssue[] = [];
  if (prefill.cardholderName !== undefined) {
    if (prefill.cardholderName.length === 0) {
      issues.push({ field: 'cardholderName', message: 'cardholderName must not be empty (after removing invisible characters and spaces).' });
    } else if (characterLength(prefill.cardholderName) > CARDHOLDER_NAME_MAX) {
      issues.push({ field: 'cardholderName', message: `cardholderName must be at most ${CARDHOLDER_NAME_MAX} characters.` });
    }
  }
  if (prefill.documentType !== undefined && !isDocumentType(prefill.documentType)) {
    issues.push({ field: 'documentType', message: `documentType must be one of ${DOCUMENT_TYPES.join(', ')}.` });
  }
  if (prefill.documentId !== undefined) {
    if (prefill.documentType === undefined) {
      issues.push({ field: 'documentId', message: 'documentId requires documentType.' });
    } else if (isDocumentType(prefill.documentType)) {
      const problem = documentIdFormatIssue(prefill.documentType, prefill.documentId);
      if (problem) issues.push({ field: 'documentId', message: problem });
    }
  }
  return issues;
}
