import { normaliseEmail } from '../../shared/domain/dashboard-user.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { SignInBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { signInAnswer } from '../../shared/dashboard/sign-in-answer.ts';
import { limitSignInRate, withReservedAttempt } from '../../shared/dashboard/sign-in-guard.ts';

/**
 * POST /v1/dashboard/auth/sign-in: email and password to a user token (or a challenge). The attempt is reserved
 * against the email's lockout before the directory is asked (sign-in-guard.ts): a locked email costs no password check.
 * Before that, the attempt counts against sign-in's rate limit per client address and per email.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.dashboardSignIn,
  { body: SignInBodySchema },
  async (req, deps) => {
    const email = normaliseEmail(req.body.email);
    await limitSignInRate(deps, { client: req.client.ipAddress, email }, req.now);
    const result = await withReservedAttempt(deps, email, req.now, () => deps.userDirectory.signIn(email, req.body.password), (outcome) => outcome.kind === 'refused');
    return signInAnswer(deps, result, req.now, { mfa: false });
  },
  { userDirectory: userDirectoryFromEnvironment },
);
