import { describe, expect, it } from 'vitest';
import { declineReason, PROCESSOR_CODES, SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { cardBrand, checkPaymentData, fundingOfBrand, luhnValid, summariseCard } from '../../shared/domain/payment-data.ts';

const card = { number: '4111 1111 1111 1111', expMonth: 12, expYear: 2030, cvv: '123', holderName: '  Ana   Pérez ' };
const document = { type: 'v', id: '12.345.678' };

describe('checkPaymentData', () => {
  it('cleans valid data: number without separators, holder collapsed, document normalised', () => {
    expect(checkPaymentData({ card, document }, 'bank_direct')).toEqual({
      ok: true,
      data: { card: { number: '4111111111111111', expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Ana Pérez' }, document: { type: 'V', id: '12345678' } },
    });
  });

  it.each([
    ['a number failing the Luhn check', { card: { ...card, number: '4111111111111112' }, document }, 'card.number'],
    ['a month out of range', { card: { ...card, expMonth: 13 }, document }, 'card.expMonth'],
    ['a two-digit year', { card: { ...card, expYear: 30 }, document }, 'card.expYear'],
    ['a five-digit CVV', { card: { ...card, cvv: '12345' }, document }, 'card.cvv'],
    ['a missing holder name', { card: { ...card, holderName: undefined }, document }, 'card.holderName'],
    ['a holder name of invisible characters only', { card: { ...card, holderName: '\u200b \u200e' }, document }, 'card.holderName'],
    ['a missing document on a VES bank', { card }, 'document'],
    ['an unknown document type', { card, document: { type: 'X', id: '12345678' } }, 'document.type'],
    ['letters in a cédula', { card, document: { type: 'V', id: '12A45678' } }, 'document.id'],
  ])('reports %s', (_, input, field) => {
    const result = checkPaymentData(input, 'bank_direct');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((i) => i.field)).toEqual([field]);
  });

  it('does not ask the USD processor for a document', () => {
    expect(checkPaymentData({ card }, 'card_processor')).toMatchObject({ ok: true, data: { document: null } });
  });

  it('accepts a past expiry: the bank declines it with its own code', () => {
    expect(checkPaymentData({ card: { ...card, expYear: 2020, expMonth: 1 }, document }, 'bank_direct').ok).toBe(true);
  });
});

describe('card summaries', () => {
  it('keeps brand and last four only', () => {
    expect(summariseCard(card)).toEqual({ brand: 'visa', lastFour: '1111', expMonth: 12, expYear: 2030, holderName: 'Ana Pérez' });
    expect(JSON.stringify(summariseCard(card))).not.toContain('4111111111111111');
  });

  it.each([
    ['4111111111111111', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'unknown'],
  ])('recognises %s as %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
    expect(luhnValid(number)).toBe(true);
  });

  // Issue 35 item 8: Mercantil's test debit card (a Maestro) came back as unknown.
  it.each([
    ['501878201234567890', 'maestro'],
    ['5020000000000000', 'maestro'],
    ['5038000000000000', 'maestro'],
    ['5893000000000000', 'maestro'],
    ['6304000000000000', 'maestro'],
    ['6759000000000000', 'maestro'],
    ['6761000000000000', 'maestro'],
    ['6763000000000000', 'maestro'],
    ['6760000000000000', 'unknown'],
    ['6764000000000000', 'unknown'],
    ['5019000000000000', 'unknown'],
    ['5412478846849445', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['2220990000000000', 'unknown'],
    ['2721000000000000', 'unknown'],
  ])('reads the IIN of %s as %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });

  it('says debit for Maestro, a debit-only network, and nothing for the networks that issue every kind', () => {
    expect(fundingOfBrand('maestro')).toBe('debit');
    for (const brand of ['visa', 'mastercard', 'amex', 'unknown']) expect(fundingOfBrand(brand)).toBeNull();
    expect(summariseCard({ ...card, number: '501878201234567890' }).brand).toBe('maestro');
  });
});

describe('declineReason', () => {
  it.each<string>([...Object.values(PROCESSOR_CODES), ...Object.values(SERVICE_CODES)])('has Spanish text for %s', (code) => {
    const text = declineReason(code, 'declined');
    expect(text).toMatch(/^[A-ZÁÉÍÓÚÑ¿¡]/);
    expect(text).not.toMatch(/\b(the|card|error|declined)\b/i);
  });

  it('falls back to a generic text per outcome for an unknown code', () => {
    expect(declineReason('9999', 'declined')).toBe(declineReason(PROCESSOR_CODES.DO_NOT_HONOR, 'declined'));
    expect(declineReason('9999', 'failed')).toBe(declineReason(PROCESSOR_CODES.PROCESSOR_ERROR, 'failed'));
  });
});
