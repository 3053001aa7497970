import { describe, expect, it } from 'vitest';
import { overview } from '../../shared/dashboard/overview.ts';
import type { Transaction } from '../../shared/domain/transaction.ts';

/** An approved live VES payment of 10.00 at `createdAt`: all the overview reads of a transaction. */
const paid = (reference: string, createdAt: string): Transaction => ({
  reference,
  merchantId: 'mer_1',
  mode: 'live',
  sessionReference: null,
  gateway: 'bank_direct',
  status: 'approved',
  amountMinor: 1000,
  currency: 'VES',
  card: null,
  document: null,
  processorReference: null,
  declineReason: null,
  errorCode: null,
  detail: null,
  otpFailures: 0,
  trace: [],
  createdAt,
  updatedAt: createdAt,
});

const vesOf = (result: ReturnType<typeof overview>) => result.currencies.find((c) => c.currency === 'VES')!;

describe('overview days in a time zone with daylight saving', () => {
  it.each([
    // Madrid's 23-hour day: 24 h before 00:30 on the 31st is 23:30 on the 29th, so stepping by 24 h skipped the 30th.
    { zone: 'Europe/Madrid', now: '2025-03-30T22:30:00Z', first: '2025-03-02', last: '2025-03-31', switchDay: '2025-03-30', paidAt: '2025-03-30T10:00:00Z' },
    // Madrid's 25-hour day: 48 h before 23:30 on the 27th is 00:30 on the 26th, so stepping by 24 h listed the 26th twice.
    { zone: 'Europe/Madrid', now: '2025-10-27T22:30:00Z', first: '2025-09-28', last: '2025-10-27', switchDay: '2025-10-26', paidAt: '2025-10-26T12:00:00Z' },
    // Santiago skips from 00:00 to 01:00 on 7 September.
    { zone: 'America/Santiago', now: '2025-09-08T03:30:00Z', first: '2025-08-10', last: '2025-09-08', switchDay: '2025-09-07', paidAt: '2025-09-07T15:00:00Z' },
  ])('lists 30 consecutive calendar days of $zone around $switchDay, each once, and counts its payments once', ({ zone, now, first, last, switchDay, paidAt }) => {
    const ves = vesOf(overview([paid('txn_switch', paidAt)], Date.parse(now), zone));
    const dates = ves.daily.map((d) => d.date);
    expect(dates).toHaveLength(30);
    expect(dates[0]).toBe(first);
    expect(dates.at(-1)).toBe(last);
    for (const [i, date] of dates.entries()) {
      if (i > 0) expect(Date.parse(date) - Date.parse(dates[i - 1]!)).toBe(86_400_000);
    }
    expect(ves.daily.find((d) => d.date === switchDay)).toMatchObject({ approved: 1, approvedAmountMinor: 1000 });
    expect(ves.last30Days).toEqual({ approvedAmountMinor: 1000, approvalRate: 1, count: 1 });
  });

  it("takes today as the zone's date, not UTC's", () => {
    // 22:30 UTC on 30 March is already 00:30 on the 31st in Madrid.
    const ves = vesOf(overview([paid('txn_today', '2025-03-30T22:10:00Z')], Date.parse('2025-03-30T22:30:00Z'), 'Europe/Madrid'));
    expect(ves.daily.at(-1)!.date).toBe('2025-03-31');
    expect(ves.today).toEqual({ approvedAmountMinor: 1000, approvalRate: 1, count: 1 });
  });
});
