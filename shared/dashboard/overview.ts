/**
 * The overview page's figures: per currency, today's and the last 30 days' approved amount and approval rate, a
 * daily series, and the latest failures. Live transactions only. Days are the merchant's (an IANA time zone). Pure.
 */
import { summariseTransactions } from '../domain/analytics.ts';
import type { Transaction } from '../domain/transaction.ts';

export const OVERVIEW_DAYS = 30;
const RECENT_FAILURES = 10;

/** The calendar date (YYYY-MM-DD) of `at` in `timeZone`. */
export const localDate = (at: number, timeZone: string): string => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/**
 * The calendar date `days` after `date` (YYYY-MM-DD; negative goes back). Calendar arithmetic, not 24-hour steps,
 * because a zone's day around a daylight-saving change lasts 23 or 25 hours.
 */
function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** Whether `timeZone` is an IANA name this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    localDate(0, timeZone);
    return true;
  } catch {
    return false;
  }
}

type Figures = { approvedAmountMinor: number; approvalRate: number | null; count: number };

/**
 * @example
 * overview(transactionsOfTheLast31Days, Date.now(), 'America/Caracas').currencies[0].today.approvedAmountMinor
 */
export function overview(transactions: readonly Transaction[], now: number, timeZone: string) {
  const today = localDate(now, timeZone);
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) => addDays(today, i - (OVERVIEW_DAYS - 1)));
  const inWindow = new Set(days);
  const byDay = new Map<string, Transaction[]>();
  for (const t of transactions) {
    const day = localDate(Date.parse(t.createdAt), timeZone);
    if (inWindow.has(day)) byDay.set(day, [...(byDay.get(day) ?? []), t]);
  }
  const figures = (list: readonly Transaction[]) => summariseTransactions([...list]).byCurrency;
  const windowSummary = figures(days.flatMap((d) => byDay.get(d) ?? []));
  const todaySummary = figures(byDay.get(days.at(-1)!) ?? []);
  const dailySummaries = days.map((date) => ({ date, byCurrency: figures(byDay.get(date) ?? []) }));
  const pick = (s: (typeof windowSummary)[number]): Figures => ({
    approvedAmountMinor: s.approvedAmountMinor,
    approvalRate: s.approvalRate,
    count: Object.values(s.counts).reduce((a, b) => a + b, 0),
  });
  const currencies = windowSummary.map((summary, i) => ({
    currency: summary.currency,
    today: pick(todaySummary[i]!),
    last30Days: pick(summary),
    daily: dailySummaries.map(({ date, byCurrency }) => {
      const c = byCurrency[i]!;
      return { date, approvedAmountMinor: c.approvedAmountMinor, approved: c.counts.approved + c.counts.refunded, declined: c.counts.declined, failed: c.counts.failed };
    }),
  }));
  const recentFailures = transactions
    .filter((t) => (t.status === 'declined' || t.status === 'failed') && inWindow.has(localDate(Date.parse(t.createdAt), timeZone)))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, RECENT_FAILURES)
    .map((t) => ({ reference: t.reference, sessionReference: t.sessionReference, status: t.status, amountMinor: t.amountMinor, currency: t.currency, errorCode: t.errorCode, declineReason: t.declineReason, createdAt: t.createdAt }));
  return { currencies, recentFailures };
}
