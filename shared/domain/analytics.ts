/**
 * The analytics summary: counts per currency and status, approved and refunded volume, and the approval rate. Pure.
 * Only live transactions are given to it: test ones are excluded from analytics by the spec.
 */
import { CURRENCIES, type Currency } from './merchant.ts';
import { refundedMinor } from './refund.ts';
import { TRANSACTION_STATUSES, type Transaction, type TransactionStatus } from './transaction.ts';

export interface CurrencySummary {
  currency: Currency;
  counts: Record<TransactionStatus, number>;
  /** Sum of the amounts the bank approved, minor units: refunded transactions included (they were approved). */
  approvedAmountMinor: number;
  /** Sum of the refunds that succeeded, minor units (partial ones of approved transactions included). */
  refundedAmountMinor: number;
  /** The part of refundedAmountMinor the merchant returned another way and recorded (external refunds): no money moved here. */
  refundedExternallyAmountMinor: number;
  /** approved / (approved + declined + failed), refunded counted as approved; null when none happened. Pending is left out. */
  approvalRate: number | null;
}

const zeroCounts = () => Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s, 0])) as Record<TransactionStatus, number>;

/** Rounded to four decimals (0.6667), so that the answer is stable whatever the floating-point path. */
const rate = (approved: number, decided: number): number | null => (decided === 0 ? null : Math.round((approved / decided) * 10_000) / 10_000);

export function summariseTransactions(
  transactions: Pick<Transaction, 'currency' | 'status' | 'amountMinor' | 'amountRefundedMinor' | 'amountRefundedExternallyMinor'>[],
): { byCurrency: CurrencySummary[]; approvalRate: number | null } {
  const byCurrency = new Map<Currency, CurrencySummary>(
    CURRENCIES.map((currency) => [currency, { currency, counts: zeroCounts(), approvedAmountMinor: 0, refundedAmountMinor: 0, refundedExternallyAmountMinor: 0, approvalRate: null }]),
  );
  for (const t of transactions) {
    const summary = byCurrency.get(t.currency)!;
    summary.counts[t.status]++;
    if (t.status === 'approved' || t.status === 'refunded') summary.approvedAmountMinor += t.amountMinor;
    summary.refundedAmountMinor += refundedMinor(t);
    summary.refundedExternallyAmountMinor += t.amountRefundedExternallyMinor ?? 0;
  }
  let approved = 0;
  let decided = 0;
  for (const summary of byCurrency.values()) {
    const { declined, failed } = summary.counts;
    const a = summary.counts.approved + summary.counts.refunded;
    summary.approvalRate = rate(a, a + declined + failed);
    approved += a;
    decided += a + declined + failed;
  }
  return { byCurrency: [...byCurrency.values()], approvalRate: rate(approved, decided) };
}
