import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { mfaOutstanding } from '../../shared/dashboard/dashboard-sessions.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';

/**
 * GET /v1/dashboard/me: who is signed in, for which merchant, and whether they must add an authenticator app before
 * anything else (an admin signed in without one: the page then leads them to the Security page).
 */
export const { build, handler, schemas } = defineApiHandler(manifest.getDashboardMe, {}, async (req) => {
  const { merchant, dashboardSession } = req.auth;
  const user = signedInUser(req.auth);
  const mfaRequired = mfaOutstanding(user.role, dashboardSession!);
  return { statusCode: 200, body: { user, merchant: { id: merchant.id, name: merchant.name, businessName: merchant.businessName ?? null }, mfaRequired } };
}, { userTokens: userTokensFromEnvironment });
