import { toSessionResource } from '../../shared/domain/session.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { ListSessionsQuerySchema } from '../../shared/schemas/session-schemas.ts';

export const { build, handler, schemas } = defineApiHandler(manifest.listSessions, { query: ListSessionsQuerySchema }, async (req, deps) => {
  const { page, pageSize, status } = req.query;
  const { items, total } = await deps.sessions.list(req.auth.merchant.id, req.auth.mode, { page, pageSize, status, now: req.now });
  return {
    statusCode: 200,
    body: { data: items.map((s) => toSessionResource(s, req.now, deps.config.checkoutBaseUrl)), total, page, pageSize },
  };
}, { userTokens: userTokensFromEnvironment });
