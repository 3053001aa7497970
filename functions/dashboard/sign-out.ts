import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';

/**
 * POST /v1/dashboard/auth/sign-out: ends the session of the token that calls (the API refuses the token from then on,
 * though it is still signed and unexpired), then revokes what the directory can (Cognito's refresh and access tokens).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.dashboardSignOut,
  {},
  async (req, deps) => {
    const user = signedInUser(req.auth);
    await deps.dashboardSessions.end(req.auth.dashboardSession!.id);
    await deps.userDirectory.signOut(user.id);
    return { statusCode: 200, body: { signedOut: true }, headers: { 'Cache-Control': 'no-store' } };
  },
  { userDirectory: userDirectoryFromEnvironment, userTokens: userTokensFromEnvironment },
);
