import { normaliseEmail } from '../../shared/dashboard/dashboard-user.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { SignInBodySchema, SignInResultSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { signInAnswer } from './sign-in-answer.ts';
import { refuseWhileLocked } from './sign-in-guard.ts';

/**
 * POST /v1/dashboard/auth/sign-in: email and password to a user token (or a challenge). A locked email is refused
 * before the directory is asked, so guessing stops costing us a password check.
 */
export const { build, handler, schemas, parts } = defineApiHandler(
  'dashboardSignIn',
  { body: SignInBodySchema, responses: { success: { 200: SignInResultSchema } } },
  async (req, deps) => {
    const email = normaliseEmail(req.body.email);
    await refuseWhileLocked(deps, email, req.now);
    return signInAnswer(deps, await deps.userDirectory.signIn(email, req.body.password), email, req.now);
  },
  { parts: [userDirectoryFromEnvironment] },
);
