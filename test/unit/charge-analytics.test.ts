import { describe, expect, it } from 'vitest';
import { summariseTransactions } from '../../shared/domain/analytics.ts';
import { effectivePrefill } from '../../shared/domain/checkout-view.ts';

describe('summariseTransactions', () => {
  it('counts per currency and status, sums approved (refunded included), refunded and externally refunded amounts, and leaves pending out of the rate', () => {
    const summary = summariseTransactions([
      { currency: 'VES', status: 'approved', amountMinor: 1000 },
      { currency: 'VES', status: 'declined', amountMinor: 500 },
      { currency: 'VES', status: 'pending', amountMinor: 800 },
      { currency: 'USD', status: 'approved', amountMinor: 200 },
      { currency: 'USD', status: 'failed', amountMinor: 300 },
      { currency: 'USD', status: 'refunded', amountMinor: 400, amountRefundedMinor: 400 },
      { currency: 'USD', status: 'approved', amountMinor: 100, amountRefundedMinor: 30, amountRefundedExternallyMinor: 30 },
    ]);
    expect(summary.byCurrency).toEqual([
      { currency: 'VES', counts: { pending: 1, approved: 1, declined: 1, failed: 0, refunded: 0 }, approvedAmountMinor: 1000, refundedAmountMinor: 0, refundedExternallyAmountMinor: 0, approvalRate: 0.5 },
      { currency: 'USD', counts: { pending: 0, approved: 2, declined: 0, failed: 1, refunded: 1 }, approvedAmountMinor: 700, refundedAmountMinor: 430, refundedExternallyAmountMinor: 30, approvalRate: 0.75 },
    ]);
    expect(summary.approvalRate).toBe(0.6667);
  });

  it('gives a null rate when nothing was decided', () => {
    expect(summariseTransactions([]).approvalRate).toBeNull();
  });
});

describe('effectivePrefill', () => {
  const prefill = { cardholderName: 'Ana', documentType: 'V' as const, documentId: '12345678' };
  const stored = (holderName: string | null, documentId: string | null) => ({ brand: 'visa', lastFour: '1111', holderName, documentType: documentId ? 'V' : null, documentId });

  it.each([
    ['holder and document', stored('Ana', '1'), null],
    ['document, no holder', stored(null, '1'), { cardholderName: 'Ana' }],
    ['holder, no document', stored('Ana', null), { documentType: 'V', documentId: '12345678' }],
    ['neither', stored(null, null), prefill],
    ['no stored card', null, prefill],
  ])('applies the spec table when the stored card has %s', (_, card, expected) => {
    expect(effectivePrefill(prefill, card)).toEqual(expected);
  });
});
