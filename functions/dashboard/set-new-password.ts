import { passwordProblem } from '../../shared/dashboard/password-policy.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { ValidationError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { NewPasswordBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { signInAnswer } from '../../shared/dashboard/sign-in-answer.ts';

/** POST /v1/dashboard/auth/new-password: the first sign-in's `new_password` challenge (the temporary one replaced). */
export const { build, handler, schemas } = defineApiHandler(
  manifest.dashboardNewPassword,
  { body: NewPasswordBodySchema },
  async (req, deps) => {
    const problem = passwordProblem(req.body.newPassword);
    if (problem) throw new ValidationError(problem, 'newPassword', 'parameter_invalid');
    return signInAnswer(deps, await deps.userDirectory.respond(req.body.challengeSession, 'new_password', req.body.newPassword), req.now, { mfa: false });
  },
  { userDirectory: userDirectoryFromEnvironment },
);
