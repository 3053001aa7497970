import { describe, expect, it } from 'vitest';
import { brandName, cardNumberIssue, cvvIssue, documentIdIssue, expYearIssue, formatCardNumber, holderNameIssue } from '../../checkout/src/card-input.ts';
import { AMOUNT_LOCALE, FIELD_ERRORS } from '../../checkout/src/messages.ts';
import { formatMoney } from '../../shared/domain/money-format.ts';
import { formatRemaining } from '../../checkout/src/server-clock.ts';

/** The page's own checks and formats, without a browser. */
describe('checkout card input', () => {
  it('formats numbers as printed on the card and tells the brand', () => {
    expect(formatCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('3782-822463-10005')).toBe('3782 822463 10005');
    expect(brandName('5555 5555 5555 4444')).toBe('Mastercard');
    expect(brandName('9')).toBe('');
  });

  it('refuses numbers that fail the Luhn check before they cost an attempt', () => {
    expect(cardNumberIssue('4111 1111 1111 1111')).toBeNull();
    expect(cardNumberIssue('4111 1111 1111 1112')).toBe(FIELD_ERRORS.cardNumberInvalid);
    expect(cardNumberIssue('')).toBe(FIELD_ERRORS.cardNumberMissing);
  });

  it('judges expiry on the server clock: a card is valid through the end of its month', () => {
    const now = Date.parse('2030-06-15T12:00:00Z');
    expect(expYearIssue('2030', '06', now)).toBeNull();
    expect(expYearIssue('30', '05', now)).toBe(FIELD_ERRORS.cardExpired);
    expect(expYearIssue('203', '05', now)).toBe(FIELD_ERRORS.expYearInvalid);
  });

  it('asks American Express for 4 CVV digits, other brands for 3 or 4', () => {
    expect(cvvIssue('123', 'amex')).toBe(FIELD_ERRORS.cvvInvalid);
    expect(cvvIssue('1234', 'amex')).toBeNull();
    expect(cvvIssue('123', 'visa')).toBeNull();
  });

  it("applies the spec's document rules after removing separators: digits for V/E/J/G, letters and digits for P", () => {
    expect(documentIdIssue('V', '12.345.678')).toBeNull();
    expect(documentIdIssue('V', 'AB12345')).toBe(FIELD_ERRORS.documentIdInvalid);
    expect(documentIdIssue('E', '1234')).toBe(FIELD_ERRORS.documentIdInvalid);
    expect(documentIdIssue('P', 'ab123456')).toBeNull();
    expect(documentIdIssue('P', '')).toBe(FIELD_ERRORS.documentIdMissing);
  });

  it('needs a holder name of at most 80 characters after cleaning', () => {
    expect(holderNameIssue('  \u200b ')).toBe(FIELD_ERRORS.holderNameMissing);
    expect(holderNameIssue('a'.repeat(81))).toBe(FIELD_ERRORS.holderNameTooLong);
    expect(holderNameIssue('Ñandú Pérez')).toBeNull();
  });
});

describe('checkout formats', () => {
  it("formats amounts for Venezuelan buyers (es-VE) with today's bolívar symbol Bs., never the old Bs.S", () => {
    // Node's ICU, like the browsers', still names the bolívar Bs.S (or VES): the page sets the symbol itself.
    expect(new Intl.NumberFormat('es-VE', { style: 'currency', currency: 'VES' }).format(1)).not.toMatch(/^Bs\.\s/);
    expect(formatMoney(125050, 'VES', AMOUNT_LOCALE)).toMatch(/^Bs\.\s1\.250,50$/);
    expect(formatMoney(100, 'VES', AMOUNT_LOCALE)).toMatch(/^Bs\.\s1,00$/);
    expect(formatMoney(123456789, 'VES', AMOUNT_LOCALE)).toMatch(/^Bs\.\s1\.234\.567,89$/);
    expect(formatMoney(1999, 'USD', AMOUNT_LOCALE)).toMatch(/19,99/);
    expect(formatMoney(1999, 'USD', AMOUNT_LOCALE)).not.toMatch(/Bs/);
  });

  it('counts down in minutes and seconds, never below zero', () => {
    expect(formatRemaining(299_001)).toBe('5:00');
    expect(formatRemaining(65_000)).toBe('1:05');
    expect(formatRemaining(-3_000)).toBe('0:00');
  });
});
