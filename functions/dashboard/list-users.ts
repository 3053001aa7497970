import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';

/** GET /v1/dashboard/users: the merchant's users, oldest first. */
export const { build, handler, schemas } = defineApiHandler(manifest.listDashboardUsers, {}, async (req, deps) => ({
  statusCode: 200,
  body: { data: await deps.users.listForMerchant(req.auth.merchant.id) },
}), { userTokens: userTokensFromEnvironment });
