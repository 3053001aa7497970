import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { MfaBodySchema, SignInResultSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { signInAnswer } from './sign-in-answer.ts';

/** POST /v1/dashboard/auth/mfa: the authenticator app's code for a sign-in's `mfa` challenge. */
export const { build, handler, schemas, parts } = defineApiHandler(
  'dashboardMfa',
  { body: MfaBodySchema, responses: { success: { 200: SignInResultSchema } } },
  async (req, deps) => signInAnswer(deps, await deps.userDirectory.respond(req.body.challengeSession, req.body.code), null, req.now),
  { parts: [userDirectoryFromEnvironment] },
);
