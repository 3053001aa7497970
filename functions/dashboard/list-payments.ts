import type { CoreDeps } from '../../shared/deps.ts';
import * as manifest from '../../shared/route-manifest.ts';
import type { AuthContext } from '../../shared/auth/authenticator.ts';
import { ownedBy } from '../../shared/auth/ownership.ts';
import { chargeRow, matchesFilters, sessionRow, type PaymentRow } from '../../shared/domain/payment-row.ts';
import { toSessionResource } from '../../shared/domain/session.ts';
import { ValidationError } from '../../shared/errors.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { PaymentsQuerySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { decodeCursor, encodeCursor, searchPayments } from '../../shared/dashboard/payment-search.ts';

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
 * GET /v1/dashboard/payments: sessions and server-to-server charges of the caller's mode in one list, newest first;
 * `query` is a reference (read directly) or a customerRef. docs/dashboard.md, "Payments".
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.listDashboardPayments,
  { query: PaymentsQuerySchema },
  async (req, deps) => {
    const { query, lastFour, status, currency, amountMinor, limit, cursor } = req.query;
    const owner = { merchantId: req.auth.merchant.id, mode: req.auth.mode };
    const after = cursor === undefined ? undefined : decodeCursor(owner, cursor);
    const from = instant(req.query.from, 'from');
    const to = instant(req.query.to, 'to');
    if (from && to && from > to) throw new ValidationError('to must not be before from.', 'to', 'parameter_invalid');
    if (query && /^(cs|txn)_/.test(query)) {
      // One payment at most: the other filters and the dates still apply to it; there is never a next page.
      const row = await paymentByReference(deps, req.auth, query, req.now);
      const shown = row && (!from || row.createdAt >= from) && (!to || row.createdAt < to) && matchesFilters(row, { lastFour, status, currency, amountMinor });
      return { statusCode: 200, body: { data: shown ? [row] : [], hasMore: false, nextCursor: null } };
    }
    const page = await searchPayments({ db: deps.db, tableName: deps.config.tableName }, { ...owner, filters: { customerRef: query, lastFour, status, currency, amountMinor }, from, to, limit, after, now: req.now });
    return {
      statusCode: 200,
      body: { data: page.data, hasMore: page.after !== null, nextCursor: page.after === null ? null : encodeCursor(owner, page.after) },
    };
  },
  { userTokens: userTokensFromEnvironment },
);
