import { describe, expect, it } from 'vitest';
import { afterRefund, decideRefund, newRefund, refundEvent, remainingMinor, resolveRefund } from '../../shared/domain/refund.ts';
import { newTransaction, resolveTransaction, type Transaction } from '../../shared/domain/transaction.ts';

const NOON = Date.parse('2026-03-10T12:00:00Z');

function approved(changes: Partial<Transaction> = {}, gateway: Transaction['gateway'] = 'bank_direct'): Transaction {
  const pending = newTransaction(
    { reference: 'txn_1' },
    { merchantId: 'mer_1', mode: 'live', sessionReference: 'cs_1', gateway, amountMinor: 1000, currency: gateway === 'card_processor' ? 'USD' : 'VES', now: NOON },
    null,
    null,
  );
  return { ...resolveTransaction(pending, { status: 'approved', processorReference: 'AUTH1' }, NOON), ...changes };
}

describe('decideRefund', () => {
  it('refunds all that remains by default, pending refunds counted as taken', () => {
    expect(decideRefund(approved({ amountReservedMinor: 300 }), undefined, NOON)).toEqual({ kind: 'refund', amountMinor: 700, method: 'refund' });
    expect(remainingMinor(approved({ amountReservedMinor: 300 }))).toBe(700);
  });

  it('refuses more than remains with 400 refund_amount_exceeds_remaining, saying how much remains', () => {
    const decision = decideRefund(approved({ amountReservedMinor: 400 }), 700, NOON);
    expect(decision).toMatchObject({ kind: 'refused', status: 400, code: 'refund_amount_exceeds_remaining' });
    expect(decision.kind === 'refused' && decision.message).toContain('600 that remains');
  });

  it.each([
    ['pending', 'transaction_not_refundable'],
    ['declined', 'transaction_not_refundable'],
    ['failed', 'transaction_not_refundable'],
    ['refunded', 'already_refunded'],
  ] as const)('refuses a %s transaction with 409 %s', (status, code) => {
    expect(decideRefund(approved({ status }), undefined, NOON)).toMatchObject({ kind: 'refused', status: 409, code });
  });

  it('refuses with 409 already_refunded when pending refunds hold the whole amount', () => {
    expect(decideRefund(approved({ amountReservedMinor: 1000 }), 1, NOON)).toMatchObject({ kind: 'refused', status: 409, code: 'already_refunded' });
  });

  it('voids a whole refund on the day of the charge at the card processor only', () => {
    const usd = approved({}, 'card_processor');
    expect(decideRefund(usd, undefined, NOON + 3600_000)).toMatchObject({ method: 'void' });
    expect(decideRefund(usd, 999, NOON + 3600_000)).toMatchObject({ method: 'refund' });
    expect(decideRefund(usd, undefined, NOON + 86_400_000)).toMatchObject({ method: 'refund' });
    expect(decideRefund(approved(), undefined, NOON + 3600_000)).toMatchObject({ method: 'refund' });
  });
});

describe('afterRefund and refundEvent', () => {
  it('keeps a partially refunded transaction approved and makes a fully refunded one refunded', () => {
    expect(afterRefund(approved(), 400)).toEqual({ amountRefundedMinor: 400, status: 'approved' });
    expect(afterRefund(approved({ amountRefundedMinor: 400 }), 600)).toEqual({ amountRefundedMinor: 1000, status: 'refunded' });
  });

  it('announces a failure with its Spanish reason and the running total unchanged', () => {
    const t = approved({ amountRefundedMinor: 200 });
    const failed = resolveRefund(newRefund('ref_1', t, { amountMinor: 300, method: 'refund' }, null, NOON), { status: 'failed', errorCode: '0057', detail: 'closed' }, NOON);
    const event = refundEvent(failed, t, 200, '2026-03-10T12:00:00.000Z');
    expect(event.type).toBe('charge.refund_failed');
    expect(event.data).toMatchObject({ refundReference: 'ref_1', errorCode: '0057', declineReason: expect.stringMatching(/^El banco/), amountRefundedMinor: 200, sessionReference: 'cs_1', metadata: {} });
  });
});
