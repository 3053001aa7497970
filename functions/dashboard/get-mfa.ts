import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';

/** GET /v1/dashboard/me/mfa: whether the signed-in user's sign-in asks for a code (the directory knows; the table does not). */
export const { build, handler, schemas } = defineApiHandler(
  manifest.getDashboardMfa,
  {},
  async (req, deps) => ({ statusCode: 200, body: { enabled: await deps.userDirectory.mfaEnabled(signedInUser(req.auth).id) } }),
  { userTokens: userTokensFromEnvironment, userDirectory: userDirectoryFromEnvironment },
);
