import { isTimeZone, overview, OVERVIEW_DAYS } from '../../shared/dashboard/overview.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { ValidationError } from '../../shared/errors.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { OverviewQuerySchema } from '../../shared/schemas/dashboard-schemas.ts';

/**
 * GET /v1/dashboard/overview?tz=: live transactions of the last 30 days (plus one, for the time zone's offset), read
 * from the merchant's live transactions index in one date range, summarised per currency and day.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.getDashboardOverview,
  { query: OverviewQuerySchema },
  async (req, deps) => {
    const timeZone = req.query.tz ?? 'UTC';
    if (!isTimeZone(timeZone)) throw new ValidationError('tz must be an IANA time zone, e.g. America/Caracas.', 'tz', 'parameter_invalid');
    const from = new Date(req.now - (OVERVIEW_DAYS + 1) * 86_400_000).toISOString();
    const { items } = await deps.transactions.list(req.auth.merchant.id, 'live', { from });
    return { statusCode: 200, body: overview(items, req.now, timeZone) };
  },
  { userTokens: userTokensFromEnvironment },
);
