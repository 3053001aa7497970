import type { Deps } from '../../shared/deps.ts';
import type { AuthContext } from '../../shared/auth/authenticator.ts';
import { chargeRow, sessionRow, type PaymentRow } from '../../shared/dashboard/payment-row.ts';
import { toSessionResource } from '../../shared/domain/session.ts';
import { ValidationError } from '../../shared/errors.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { PaymentListSchema, PaymentsQuerySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { decodeCursor, encodeCursor, searchPayments } from './payment-search.ts';

/** A reference names one payment: read directly, never searched for. */
async function paymentByReference(deps: Deps, auth: AuthContext, reference: string, now: number): Promise<PaymentRow | null> {
  if (reference.startsWith('cs_')) {
    const session = await deps.sessions.get(reference);
    if (!session || session.merchantId !== auth.merchant.id || session.mode !== auth.mode) return null;
    return sessionRow(session, toSessionResource(session, now, deps.config.checkoutBaseUrl).status);
  }
  const transaction = await deps.transactions.get(reference);
  if (!transaction || transaction.merchantId !== auth.merchant.id || transaction.mode !== auth.mode) return null;
  if (transaction.sessionReference) return paymentByReference(deps, auth, transaction.sessionReference, now);
  const card = transaction.svcToken ? await deps.cards.get(transaction.svcToken) : null;
  return chargeRow(transaction, card?.customerRef ?? null);
}

/**
 * GET /v1/dashboard/payments: sessions and server-to-server charges of the caller's mode in one list, newest first;
 * `query` is a reference (read directly) or a customerRef.
 */
export const { build, handler, schemas, parts } = defineApiHandler(
  'listDashboardPayments',
  { query: PaymentsQuerySchema, responses: { success: { 200: PaymentListSchema } } },
  async (req, deps) => {
    const { query, lastFour, status, currency, from, to, limit, cursor: rawCursor } = req.query;
    if (query && /^(cs|txn)_/.test(query)) {
      const row = await paymentByReference(deps, req.auth, query, req.now);
      return { statusCode: 200, body: { data: row ? [row] : [], hasMore: false, nextCursor: null } };
    }
    const cursor = decodeCursor(rawCursor);
    if (!cursor) throw new ValidationError('cursor is not one this list answered: start again without it.', 'cursor', 'parameter_invalid');
    const page = await searchPayments(deps, {
      merchantId: req.auth.merchant.id,
      mode: req.auth.mode,
      filters: { customerRef: query, lastFour, status, currency },
      from,
      to,
      limit,
      cursor,
      now: req.now,
    });
    return { statusCode: 200, body: { data: page.data, hasMore: page.nextCursor !== null, nextCursor: page.nextCursor && encodeCursor(page.nextCursor) } };
  },
  { parts: [userTokensFromEnvironment] },
);
