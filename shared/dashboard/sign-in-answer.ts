/**
 * What the sign-in routes answer for a directory's result: a token with its user, a challenge, or the one refusal
 * that never says whether the email has an account.
 */
import type { CoreDeps } from '../deps.ts';
import { sessionIdOf } from './dashboard-sessions.ts';
import { InvalidCredentialsError } from './errors.ts';
import { MfaCodeUsedError } from './mfa-errors.ts';
import type { SignInResult } from './user-directory.ts';
import type { ApiResult } from '../http/handler-types.ts';

/**
 * A token clears the failures of the user's email (the attempt that led to it was reserved by the route) and starts
 * its session (shared/dashboard/dashboard-sessions.ts): `mfa` when it answered an authenticator app's code.
 */
export async function signInAnswer(deps: CoreDeps, result: SignInResult, now: number, { mfa }: { mfa: boolean }): Promise<ApiResult> {
  // A used code says so (the password was right already): the user waits for the next one on the same form.
  if (result.kind === 'refused') throw result.reason === 'code_used' ? new MfaCodeUsedError() : new InvalidCredentialsError();
  if (result.kind === 'challenge') return { statusCode: 200, body: { challenge: result.challenge, challengeSession: result.challengeSession } };
  const user = await deps.users.get(result.userId);
  // A login whose user item is gone (removed meanwhile) signs nobody in.
  if (!user) throw new InvalidCredentialsError();
  await deps.users.clearSignInFailures(user.email, now);
  await deps.dashboardSessions.start(sessionIdOf(result.token), { userId: user.id, mfa, lastSeenAt: now, expiresAt: Date.parse(result.expiresAt) });
  return { statusCode: 200, body: { token: result.token, expiresAt: result.expiresAt, user }, headers: { 'Cache-Control': 'no-store' } };
}
