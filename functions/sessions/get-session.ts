import { toSessionResource } from '../../shared/domain/session.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { SessionReferenceParamsSchema } from '../../shared/schemas/session-schemas.ts';
import { findSession } from '../../shared/payments/session-access.ts';

export const { build, handler, schemas } = defineApiHandler(manifest.getSession, { params: SessionReferenceParamsSchema }, async (req, deps) => {
  const session = await findSession(deps, req.auth, req.params.reference);
  return { statusCode: 200, body: toSessionResource(session, req.now, deps.config.checkoutBaseUrl) };
}, { userTokens: userTokensFromEnvironment });
