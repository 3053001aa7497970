import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { PaymentsQuerySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { decodeCursor, encodeCursor } from '../../shared/dashboard/payment-search.ts';
import { paymentsPage } from '../../shared/dashboard/payment-query.ts';

/**
 * GET /v1/dashboard/payments: sessions and server-to-server charges of the caller's mode in one list, newest first;
 * `query` is a reference (read directly) or a customerRef. docs/dashboard.md, "Payments".
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.listDashboardPayments,
  { query: PaymentsQuerySchema },
  async (req, deps) => {
    const { limit, cursor, ...filters } = req.query;
    const owner = { merchantId: req.auth.merchant.id, mode: req.auth.mode };
    const after = cursor === undefined ? undefined : decodeCursor(owner, cursor);
    const page = await paymentsPage(deps, req.auth, filters, { limit, after, now: req.now });
    return {
      statusCode: 200,
      body: { data: page.data, hasMore: page.after !== null, nextCursor: page.after === null ? null : encodeCursor(owner, page.after) },
    };
  },
  { userTokens: userTokensFromEnvironment },
);
