import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { AuditLogQuerySchema } from '../../shared/schemas/dashboard-schemas.ts';

/** GET /v1/dashboard/audit-log: the merchant's dashboard changes, newest first, a page at a time. */
export const { build, handler, schemas } = defineApiHandler(
  manifest.listAuditLog,
  { query: AuditLogQuerySchema },
  async (req, deps) => {
    const { entries, nextCursor } = await deps.audit.list(req.auth.merchant.id, { limit: req.query.limit, cursor: req.query.cursor });
    const data = entries.map(({ merchantId: _merchant, ...entry }) => entry);
    return { statusCode: 200, body: { data, hasMore: nextCursor !== null, nextCursor } };
  },
  { userTokens: userTokensFromEnvironment },
);
