import { listKeys } from '../../shared/admin/key-admin.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { toKeySummary } from '../../shared/dashboard/key-access.ts';

/** GET /v1/dashboard/keys: both modes' keys, oldest first, by prefix and last four. */
export const { build, handler, schemas } = defineApiHandler(manifest.listDashboardKeys, {}, async (req, deps) => ({
  statusCode: 200,
  body: { data: (await listKeys(deps, req.auth.merchant.id)).map(toKeySummary) },
}), { userTokens: userTokensFromEnvironment });
