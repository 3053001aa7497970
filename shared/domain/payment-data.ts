/**
 * The buyer's payment data as the checkout sends it: card and identity document. Checked here, after the session
 * is known, because invalid data is an attempt that counts as a failure (spec, POST /v1/sessions rule 2).
 * Pure: no I/O. The card number and CVV never leave the request; only brand and last four are kept.
 */
import type { GatewayId } from './merchant.ts';
import { CARDHOLDER_NAME_MAX, DOCUMENT_TYPES, characterLength, cleanDocumentId, cleanDocumentType, cleanName, documentIdFormatIssue, type DocumentType } from './prefill.ts';

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvv: string;
  holderName?: string;
}

export interface DocumentInput {
  type: string;
  id: string;
}

export interface PaymentData {
  card: { number: string; expMonth: number; expYear: number; cvv: string; holderName: string };
  document: { type: DocumentType; id: string } | null;
}

export interface CardSummary {
  brand: string;
  lastFour: string;
  /** What the network said of the card when it approved it (Stripe's funding, Mercantil's tdd/tdc); absent otherwise. */
  funding?: CardFunding;
  expMonth: number;
  expYear: number;
  holderName: string | null;
}

export interface PaymentDataIssue {
  field: string;
  message: string;
}

/**
 * The VES banks identify the payer by cédula or passport; the USD processors (card_processor, Stripe) do not ask for
 * it. By name: the checkout page bundles this module and cannot load the connector registry behind GATEWAYS.
 */
export const documentRequired = (gateway: GatewayId): boolean => gateway !== 'card_processor' && gateway !== 'stripe';

const digitsOnly = (value: string): string => value.replace(/[\s-]/g, '');

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card's network from its IIN (first digits), as the networks publish them (Wikipedia, "Payment card number",
 * IIN table): Mastercard 51-55 and 222100-272099, Maestro 5018, 5020, 5038, 5893, 6304, 6759, 6761-6763 (Venezuelan
 * debit cards, Mercantil's test debit card 501878... among them), American Express 34 and 37, Visa 4.
 *
 * @example
 * cardBrand('501878201234567890') // 'maestro'
 */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(number)) return 'mastercard';
  if (/^(5018|5020|5038|5893|6304|6759|676[1-3])/.test(number)) return 'maestro';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

export const CARD_FUNDINGS = ['credit', 'debit', 'prepaid'] as const;
/** Debit, credit or prepaid, where a source tells; null where none does (never guessed). */
export type CardFunding = (typeof CARD_FUNDINGS)[number];

/**
 * What the brand alone says of the funding: Maestro is a debit network. Visa and Mastercard issue every kind under
 * their IINs, so only the network's answer (Stripe's funding, Mercantil's tdd/tdc) tells those apart.
 */
export const fundingOfBrand = (brand: string): CardFunding | null => (brand === 'maestro' ? 'debit' : null);

/** A run of 12 or more digits (spaces and dashes allowed between them): a card number, never part of a name. */
const DIGIT_RUN = /\d(?:[ -]?\d){11,}/g;

/**
 * A card number typed or autofilled into the name field must not be stored with the name: it is masked to its last
 * four, like the number itself.
 *
 * @example
 * maskCardNumbers('4111 1111 1111 1111') // '••••1111'
 */
export const maskCardNumbers = (text: string): string => text.replace(DIGIT_RUN, (run) => `••••${digitsOnly(run).slice(-4)}`);

/** Brand and last four of whatever was typed, for the transaction record, even when the rest is invalid. */
export function summariseCard(card: CardInput): CardSummary {
  const number = digitsOnly(card.number);
  const holder = card.holderName === undefined ? '' : maskCardNumbers(cleanName(card.holderName));
  return {
    brand: cardBrand(number),
    lastFour: /^\d{4,}$/.test(number) ? number.slice(-4) : '',
    expMonth: card.expMonth,
    expYear: card.expYear,
    holderName: holder || null,
  };
}

/**
 * The cleaned payment data, or the problems found. A past expiry is not a problem here: the bank declines it
 * with its own code (0120), as a real bank would. `luhnExempt`: the network's own documented test cards that fail
 * Luhn, on a test-mode charge (GatewayEntry.testCardsFailingLuhn): the network judges those, not our check.
 */
export function checkPaymentData(
  input: { card: CardInput; document?: DocumentInput | undefined },
  gateway: GatewayId,
  { luhnExempt = [] }: { luhnExempt?: readonly string[] } = {},
): { ok: true; data: PaymentData } | { ok: false; issues: PaymentDataIssue[] } {
  const issues: PaymentDataIssue[] = [];
  const number = digitsOnly(input.card.number);
  if (!/^\d{12,19}$/.test(number) || !(luhnValid(number) || luhnExempt.includes(number))) issues.push({ field: 'card.number', message: 'The card number is not valid.' });
  if (!Number.isInteger(input.card.expMonth) || input.card.expMonth < 1 || input.card.expMonth > 12) {
    issues.push({ field: 'card.expMonth', message: 'expMonth must be 1 to 12.' });
  }
  if (!Number.isInteger(input.card.expYear) || input.card.expYear < 2000 || input.card.expYear > 2099) {
    issues.push({ field: 'card.expYear', message: 'expYear must be a four-digit year.' });
  }
  if (!/^\d{3,4}$/.test(input.card.cvv)) issues.push({ field: 'card.cvv', message: 'cvv must be 3 or 4 digits.' });
  const holderName = cleanName(input.card.holderName ?? '');
  if (holderName.length === 0) issues.push({ field: 'card.holderName', message: 'The cardholder name is required.' });
  else if (characterLength(holderName) > CARDHOLDER_NAME_MAX) {
    issues.push({ field: 'card.holderName', message: `The cardholder name must be at most ${CARDHOLDER_NAME_MAX} characters.` });
  }

  let document: PaymentData['document'] = null;
  if (input.document) {
    const type = cleanDocumentType(input.document.type);
    const id = cleanDocumentId(input.document.id);
    if (!(DOCUMENT_TYPES as readonly string[]).includes(type)) {
      issues.push({ field: 'document.type', message: `document.type must be one of ${DOCUMENT_TYPES.join(', ')}.` });
    } else {
      const problem = documentIdFormatIssue(type as DocumentType, id);
      if (problem) issues.push({ field: 'document.id', message: problem.replace('documentId', 'document.id') });
      else document = { type: type as DocumentType, id };
    }
  } else if (documentRequired(gateway)) {
    issues.push({ field: 'document', message: 'The identity document (type and id) is required for this payment.' });
  }

  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, data: { card: { number, expMonth: input.card.expMonth, expYear: input.card.expYear, cvv: input.card.cvv, holderName }, document } };
}
