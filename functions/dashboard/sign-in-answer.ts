/**
 * What the sign-in routes answer for a directory's result: a token with its user, a challenge, or the one refusal
 * that never says whether the email has an account.
 */
import type { Deps } from '../../shared/deps.ts';
import { InvalidCredentialsError } from '../../shared/dashboard/errors.ts';
import type { SignInResult } from '../../shared/dashboard/user-directory.ts';
import type { ApiResult } from '../../shared/http/api-types.ts';
import { refuseWhileLocked } from './sign-in-guard.ts';

/**
 * `email`: the failure count to add to on a refusal, or to clear on success (null: a challenge's answer, whose
 * refusal names the user when it was a wrong MFA code).
 */
export async function signInAnswer(deps: Deps, result: SignInResult, email: string | null, now: number): Promise<ApiResult> {
  if (result.kind === 'refused') {
    const failed = email ?? (result.userId ? (await deps.users.get(result.userId))?.email : undefined);
    if (failed) await deps.users.addSignInFailure(failed, now);
    throw new InvalidCredentialsError();
  }
  if (result.kind === 'challenge') return { statusCode: 200, body: { challenge: result.challenge, challengeSession: result.challengeSession } };
  const user = await deps.users.get(result.userId);
  // A login whose user item is gone (removed meanwhile) signs nobody in.
  if (!user) throw new InvalidCredentialsError();
  // Guessing MFA codes locks the email as guessing passwords does: a locked email gets no token, even for a right code.
  if (email === null) await refuseWhileLocked(deps, user.email, now);
  await deps.users.clearSignInFailures(user.email, now);
  return { statusCode: 200, body: { token: result.token, expiresAt: result.expiresAt, user }, headers: { 'Cache-Control': 'no-store' } };
}
