import { describe, expect, it } from 'vitest';
import { effectivePrefill, type StoredCardFacts } from '../../shared/domain/checkout-view.ts';

const PREFILL = { cardholderName: 'Ana Pérez', documentType: 'V', documentId: '12345678' } as const;
const cardWith = (holderName: string | null, document: boolean): StoredCardFacts => ({
  brand: 'visa',
  lastFour: '1111',
  holderName,
  documentType: document ? 'E' : null,
  documentId: document ? '87654321' : null,
});

describe('effectivePrefill: the spec table, stored values win over prefill field by field', () => {
  it('stored card with holder and document: the whole prefill is ignored', () => {
    expect(effectivePrefill(PREFILL, cardWith('Carla Díaz', true))).toBeNull();
  });

  it('stored card with document, no holder: the document is ignored, the name is prefilled', () => {
    expect(effectivePrefill(PREFILL, cardWith(null, true))).toEqual({ cardholderName: 'Ana Pérez' });
  });

  it('stored card with holder, no document: the name is ignored, the document is prefilled', () => {
    expect(effectivePrefill(PREFILL, cardWith('Carla Díaz', false))).toEqual({ documentType: 'V', documentId: '12345678' });
  });

  it('stored card with neither: the whole prefill applies', () => {
    expect(effectivePrefill(PREFILL, cardWith(null, false))).toEqual(PREFILL);
  });

  it('no cardToken: the whole prefill applies', () => {
    expect(effectivePrefill(PREFILL, null)).toEqual(PREFILL);
  });

  it('a document type sent alone is dropped with the document when the card has one', () => {
    expect(effectivePrefill({ documentType: 'P' }, cardWith(null, true))).toBeNull();
  });

  it('no prefill stays no prefill', () => {
    expect(effectivePrefill(null, cardWith(null, false))).toBeNull();
  });
});
