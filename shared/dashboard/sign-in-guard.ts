/**
 * The sign-in lockout (shared/domain/sign-in-lockout.ts) wherever a password or an MFA code is checked: at sign-in,
 * at its MFA challenge, and at the security changes that ask for them again, so none of these is a way around the
 * 5-failures-per-15-minutes limit of an email. The attempt is reserved before the check, atomically: of many parallel
 * guesses only the limit's worth are ever checked.
 */
import { createHash } from 'node:crypto';
import type { CoreDeps } from '../deps.ts';
import type { RateLimit } from '../domain/merchant.ts';
import { SignInLockedError, SignInRateLimitedError } from './errors.ts';
import { SIGN_IN_COUNTER, SIGN_IN_RATE } from './sign-in-rate.ts';
import { isLoopback } from '../http/client-address.ts';
import { IncorrectMfaCodeError, IncorrectPasswordError, MfaCodeUsedError } from './mfa-errors.ts';
import { lockedForMs } from '../domain/sign-in-lockout.ts';

/**
 * Reserves an attempt of `email` (429 `too_many_sign_in_attempts` when none is left), runs `check`, and gives the
 * attempt back unless it was a failure: `failed` of its outcome, or a wrong password or code thrown.
 */
export async function withReservedAttempt<T>(deps: CoreDeps, email: string, now: number, check: () => Promise<T>, failed: (outcome: T) => boolean = () => false): Promise<T> {
  const locking = await deps.users.reserveSignInAttempt(email, now);
  // Refused while a success was clearing the counts: still refused, for the shortest Retry-After.
  if (locking) throw new SignInLockedError(Math.max(1, Math.ceil(lockedForMs(locking, now) / 1000)));
  let outcome: T;
  try {
    outcome = await check();
  } catch (error) {
    if (!(error instanceof IncorrectPasswordError || error instanceof IncorrectMfaCodeError || error instanceof MfaCodeUsedError)) await deps.users.releaseSignInAttempt(email, now);
    throw error;
  }
  if (!failed(outcome)) await deps.users.releaseSignInAttempt(email, now);
  return outcome;
}

/**
 * Counts an attempt against sign-in's own rate limit (shared/dashboard/sign-in-rate.ts) for the client address and,
 * when known, the email: 429 `too_many_sign_in_attempts` past either. A loopback address is not counted per client:
 * in the sandbox every caller is this machine (its page, its tests), which an API stage never sees.
 */
export async function limitSignInRate(deps: CoreDeps, { client, email }: { client: string; email?: string }, now: number): Promise<void> {
  const owners: [string, RateLimit][] = isLoopback(client) ? [] : [[`SIGNIN_CLIENT#${digest(client)}`, SIGN_IN_RATE.perClient]];
  if (email) owners.push([`SIGNIN_EMAIL#${digest(email)}`, SIGN_IN_RATE.perEmail]);
  for (const [owner, limit] of owners) {
    const decision = await deps.rateLimits.consume(owner, SIGN_IN_COUNTER, limit, now);
    if (!decision.allowed) throw new SignInRateLimitedError(decision.retryAfterSeconds);
  }
}

const digest = (value: string): string => createHash('sha256').update(value).digest('hex');
