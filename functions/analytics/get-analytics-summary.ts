import { summariseTransactions } from '../../shared/domain/analytics.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { AnalyticsSummaryQuerySchema } from '../../shared/schemas/transaction-schemas.ts';

/** GET /v1/analytics/summary?from=&to=: live transactions only, whichever key asks (test ones are excluded by the spec). */
export const { build, handler, schemas } = defineApiHandler(manifest.getAnalyticsSummary, { query: AnalyticsSummaryQuerySchema }, async (req, deps) => {
  const { from, to } = req.query;
  const { items } = await deps.transactions.list(req.auth.merchant.id, 'live', { from, to });
  return { statusCode: 200, body: { from, to, ...summariseTransactions(items) } };
}, { userTokens: userTokensFromEnvironment });
