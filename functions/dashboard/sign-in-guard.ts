/**
 * The sign-in lockout (shared/dashboard/sign-in-lockout.ts) wherever a password or an MFA code is checked: at sign-in,
 * at its MFA challenge, and at the security changes that ask for them again, so none of these is a way around the
 * 5-failures-per-15-minutes limit of an email.
 */
import type { Deps } from '../../shared/deps.ts';
import { SignInLockedError } from '../../shared/dashboard/errors.ts';
import { IncorrectMfaCodeError, IncorrectPasswordError } from '../../shared/dashboard/mfa-errors.ts';
import { lockedForMs } from '../../shared/dashboard/sign-in-lockout.ts';

/** 429 `too_many_sign_in_attempts` while `email` is locked. */
export async function refuseWhileLocked(deps: Deps, email: string, now: number): Promise<void> {
  const lockedMs = lockedForMs(await deps.users.signInFailures(email, now), now);
  if (lockedMs > 0) throw new SignInLockedError(Math.ceil(lockedMs / 1000));
}

/** Runs a change that checks the user's password or code, counting a wrong one against their email. */
export async function withPasswordOrCodeCheck<T>(deps: Deps, email: string, now: number, change: () => Promise<T>): Promise<T> {
  await refuseWhileLocked(deps, email, now);
  try {
    return await change();
  } catch (error) {
    if (error instanceof IncorrectPasswordError || error instanceof IncorrectMfaCodeError) await deps.users.addSignInFailure(email, now);
    throw error;
  }
}
