/**
 * The payments list's query as both its routes take it (GET /v1/dashboard/payments and the CSV export): the date
 * bounds, a reference read directly (one payment at most) or a search. docs/dashboard.md, "Payments".
 */
import type { AuthContext } from '../auth/authenticator.ts';
import { ownedBy } from '../auth/ownership.ts';
import type { CoreDeps } from '../deps.ts';
import { chargeRow, matchesFilters, sessionRow, type PaymentFilters, type PaymentRow } from '../domain/payment-row.ts';
import { toSessionResource } from '../domain/session.ts';
import { ValidationError } from '../errors.ts';
import { searchPayments } from './payment-search.ts';

export interface PaymentListQuery extends Omit<PaymentFilters, 'customerRef'> {
  /** A reference (cs_..., txn_...) or a customerRef. */
  query?: string;
  from?: string;
  to?: string;
}

/** A reference names one payment: read directly, never searched for. */
async function paymentByReference(deps: CoreDeps, auth: AuthContext, reference: string, now: number): Promise<PaymentRow | null> {
  if (reference.startsWith('cs_')) {
    const session = await deps.sessions.get(reference);
    if (!ownedBy(session, auth)) return null;
    return sessionRow(session, toSessionResource(session, now, deps.config.checkoutBaseUrl).status);
  }
  const transaction = await deps.transactions.get(reference);
  if (!ownedBy(transaction, auth)) return null;
  if (transaction.sessionReference) return paymentByReference(deps, auth, transaction.sessionReference, now);
  const card = transaction.svcToken ? await deps.cards.get(transaction.svcToken) : null;
  return chargeRow(transaction, card?.customerRef ?? null);
}

/** An ISO date or time as stored (`2026-01-31T00:00:00.000Z`), so bounds compare with createdAt character by character. */
function instant(value: string | undefined, field: 'from' | 'to'): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new ValidationError(`${field} is not a valid date or time.`, field, 'parameter_invalid');
  return new Date(time).toISOString();
}

/**
 * One page of the caller's payments (their merchant and mode), newest first, after `after` (a position a cursor
 * named); `after` of the answer is where the next page starts, null on the last. 400 when `to` is before `from`.
 */
export async function paymentsPage(deps: CoreDeps, auth: AuthContext, q: PaymentListQuery, page: { limit: number; after?: string; now: number }): Promise<{ data: PaymentRow[]; after: string | null }> {
  const { query, lastFour, status, currency, amountMinor } = q;
  const from = instant(q.from, 'from');
  const to = instant(q.to, 'to');
  if (from && to && from > to) throw new ValidationError('to must not be before from.', 'to', 'parameter_invalid');
  if (query && /^(cs|txn)_/.test(query)) {
    // One payment at most: the other filters and the dates still apply to it; there is never a next page.
    const row = await paymentByReference(deps, auth, query, page.now);
    const shown = row && (!from || row.createdAt >= from) && (!to || row.createdAt < to) && matchesFilters(row, { lastFour, status, currency, amountMinor });
    return { data: shown ? [row] : [], after: null };
  }
  const owner = { merchantId: auth.merchant.id, mode: auth.mode };
  return searchPayments({ db: deps.db, tableName: deps.config.tableName }, { ...owner, filters: { customerRef: query, lastFour, status, currency, amountMinor }, from, to, limit: page.limit, after: page.after, now: page.now });
}
