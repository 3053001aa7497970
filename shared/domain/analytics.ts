/**
 * The analytics summary: counts and approved volume per currency and status, and the approval rate. Pure.
 * Only live transactions are given to it: test ones are excluded from analytics by the spec.
 */
import { CURRENCIES, type Currency } from './merchant.ts';
import { TRANSACTION_STATUSES, type Transaction, type TransactionStatus } from './transaction.ts';

export interface CurrencySummary {
  currency: Currency;
  counts: Record<TransactionStatus, number>;
  /** Sum of approved amounts, minor units. */
  approvedAmountMinor: number;
  /** approved / (approved + declined + failed); null when none of those happened. Pending and refunded are left out. */
  approvalRate: number | null;
}

const zeroCounts = () => Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s, 0])) as Record<TransactionStatus, number>;

/** Rounded to four decimals (0.6667), so that the answer is stable whatever the floating-point path. */
const rate = (approved: number, decided: number): number | null => (decided === 0 ? null : Math.round((approved / decided) * 10_000) / 10_000);

export function summariseTransactions(transactions: Pick<Transaction, 'currency' | 'status' | 'amountMinor'>[]): { byCurrency: CurrencySummary[]; approvalRate: number | null } {
  const byCurrency = new Map<Currency, CurrencySummary>(
    CURRENCIES.map((currency) => [currency, { currency, counts: zeroCounts(), approvedAmountMinor: 0, approvalRate: null }]),
  );
  for (const t of transactions) {
    const summary = byCurrency.get(t.currency)!;
    summary.counts[t.status]++;
    if (t.status === 'approved') summary.approvedAmountMinor += t.amountMinor;
  }
  let approved = 0;
  let decided = 0;
  for (const summary of byCurrency.values()) {
    const { approved: a, declined, failed } = summary.counts;
    summary.approvalRate = rate(a, a + declined + failed);
    approved += a;
    decided += a + declined + failed;
  }
  return { byCurrency: [...byCurrency.values()], approvalRate: rate(approved, decided) };
}
