/**
 * Sign-in's own rate limit, on top of the lockout (sign-in-lockout.ts, which counts failures): every attempt at
 * sign-in and its MFA step counts, per client address and per email, so a client spraying many emails, or many
 * clients on one email, are slowed before any password is checked. Pure: no I/O.
 */
import type { RateLimit } from '../domain/merchant.ts';

export const SIGN_IN_RATE = {
  /** One browser or office NAT: a few people signing in, each maybe twice. */
  perClient: { perMinute: 20, perDay: 1_000 },
  /** One person: more than this a minute is no one typing. */
  perEmail: { perMinute: 10, perDay: 200 },
} as const satisfies Record<string, RateLimit>;

/** The rate-limit counter the attempts are counted under (owners are hashed: addresses and emails are personal data). */
export const SIGN_IN_COUNTER = 'sign_in';
