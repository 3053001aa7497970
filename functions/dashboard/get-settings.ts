import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { settingsView } from '../../shared/dashboard/settings-view.ts';

/** GET /v1/dashboard/settings: read fresh (not the authenticator's 30 s cache), so a change shows at once. */
export const { build, handler, schemas } = defineApiHandler(manifest.getDashboardSettings, {}, async (req, deps) => {
  const merchant = (await deps.merchants.get(req.auth.merchant.id)) ?? req.auth.merchant;
  return { statusCode: 200, body: await settingsView(deps, merchant) };
}, { userTokens: userTokensFromEnvironment });
