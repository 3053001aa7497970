import { InvalidCredentialsError } from '../../shared/dashboard/errors.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { MfaBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { signInAnswer } from '../../shared/dashboard/sign-in-answer.ts';
import { limitSignInRate, withReservedAttempt } from '../../shared/dashboard/sign-in-guard.ts';

/**
 * POST /v1/dashboard/auth/mfa: the authenticator app's code for a sign-in's `mfa` challenge. The attempt is reserved
 * against the user's email before the code is checked, as a password's is.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.dashboardMfa,
  { body: MfaBodySchema },
  async (req, deps) => {
    const userId = await deps.userDirectory.challengeUser(req.body.challengeSession, 'mfa');
    const user = userId ? await deps.users.get(userId) : null;
    await limitSignInRate(deps, { client: req.client.ipAddress, email: user?.email }, req.now);
    if (!user) throw new InvalidCredentialsError();
    const respond = () => deps.userDirectory.respond(req.body.challengeSession, 'mfa', req.body.code);
    return signInAnswer(deps, await withReservedAttempt(deps, user.email, req.now, respond, (outcome) => outcome.kind === 'refused'), req.now, { mfa: true });
  },
  { userDirectory: userDirectoryFromEnvironment },
);
