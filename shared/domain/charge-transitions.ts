/**
 * The charge side of the session state machine: when a charge attempt may start, how its outcome moves the
 * session, and the OTP step's own limit. Pure: handlers read, ask these functions, then write conditionally.
 */
import { isInFlight, type ClosedReason, type SessionState, type SessionStatus } from './session-state.ts';

/** Why a request never became an attempt: these are not counted as failures. */
export type ChargeRefusal =
  | { status: 409; code: 'session_completed' | 'attempts_exhausted' | 'charge_in_flight' | 'otp_not_requested' }
  | { status: 410; code: 'session_expired' };

export type StartDecision = { kind: 'start' } | { kind: 'refuse'; refusal: ChargeRefusal };

/**
 * Failed attempts a session without maxFailures takes before it closes with max_failures_reached: the spec's
 * "unlimited" holds for what the merchant sees (attemptsRemaining stays null), not for what an unauthenticated
 * caller of the checkout may try (docs/security.md, finding 6). A maxFailures sent overrides it, up to 10.
 */
export const DEFAULT_SESSION_FAILURES = 5;

/** Failures the session tolerates: it closes at the next one. */
const toleratedFailures = (s: Pick<SessionState, 'maxFailures'>): number => s.maxFailures ?? DEFAULT_SESSION_FAILURES - 1;

/** Attempts the checkout still takes, bounded by default or not: what the buyer's last-attempt warning counts. */
export const attemptsLeft = (s: Pick<SessionState, 'maxFailures' | 'failureCount'>): number => Math.max(0, toleratedFailures(s) + 1 - s.failureCount);

/** The spec's rule for a new attempt: 410 on sessions closed by time or merchant, 409 when exhausted, paid or busy. */
export function decideChargeStart(s: SessionState, now: number): StartDecision {
  const refusal = closedRefusal(s) ?? (isInFlight(s.status) ? ({ status: 409, code: 'charge_in_flight' } as const) : null);
  if (refusal) return { kind: 'refuse', refusal };
  if (now >= s.expiresAt) return { kind: 'refuse', refusal: { status: 410, code: 'session_expired' } };
  // Closing happens at the failure that exhausts the attempts; this guards data written before that rule (and open
  // sessions without maxFailures that failed more often than the default allows before it existed).
  if (attemptsLeft(s) === 0) return { kind: 'refuse', refusal: { status: 409, code: 'attempts_exhausted' } };
  return { kind: 'start' };
}

/**
 * A session no charge can ever start on again (paid, expired, attempts exhausted): the checkout refuses it without
 * counting it against any rate limit, so an old reference cannot use up its merchant's. A charge in flight is not
 * closed: its 409 is counted, against the session's own budget first.
 */
export function closedForCharges(s: SessionState, now: number): boolean {
  const decision = decideChargeStart(s, now);
  return decision.kind === 'refuse' && decision.refusal.code !== 'charge_in_flight';
}

function closedRefusal(s: SessionState): ChargeRefusal | null {
  if (s.status === 'completed') return { status: 409, code: 'session_completed' };
  if (s.status !== 'expired') return null;
  return s.closedReason === 'max_failures_reached' ? { status: 409, code: 'attempts_exhausted' } : { status: 410, code: 'session_expired' };
}

export type AttemptOutcome = 'approved' | 'declined' | 'failed';

export interface Settlement {
  status: SessionStatus;
  closedReason: ClosedReason | null;
  failureCount: number;
}

/**
 * Where an attempt's end leaves the session. Every rejection counts as one failure. The session closes with
 * max_failures_reached once failures exceed maxFailures (or reach DEFAULT_SESSION_FAILURES without it); otherwise a rejection that arrives after expiresAt
 * (the charge was at the bank, so the session could not expire) closes it with expired.
 */
export function settleAttempt(s: SessionState, outcome: AttemptOutcome, now: number): Settlement {
  if (outcome === 'approved') return { status: 'completed', closedReason: null, failureCount: s.failureCount };
  const failureCount = s.failureCount + 1;
  if (failureCount > toleratedFailures(s)) {
    return { status: 'expired', closedReason: 'max_failures_reached', failureCount };
  }
  if (now >= s.expiresAt) return { status: 'expired', closedReason: 'expired', failureCount };
  return { status: 'failed', closedReason: null, failureCount };
}

/** Wrong codes are not failures of the session; they have this limit of their own per attempt. */
export const MAX_OTP_ENTRIES = 3;

export type OtpDecision =
  | { kind: 'confirm' }
  /** The code came after expiresAt: the attempt ends declined (spec: the OTP must be confirmed before expiry). */
  | { kind: 'too_late' }
  | { kind: 'refuse'; refusal: ChargeRefusal };

export function decideOtpEntry(s: SessionState, now: number): OtpDecision {
  const refusal = closedRefusal(s);
  if (refusal) return { kind: 'refuse', refusal };
  if (s.status === 'processing' || s.status === 'otp_confirmed') return { kind: 'refuse', refusal: { status: 409, code: 'charge_in_flight' } };
  if (s.status !== 'otp_requested') return { kind: 'refuse', refusal: { status: 409, code: 'otp_not_requested' } };
  return now >= s.expiresAt ? { kind: 'too_late' } : { kind: 'confirm' };
}

/** After a wrong code: try again, or the attempt ends declined once the entries are used up. */
export function afterWrongOtp(wrongEntries: number): { kind: 'retry'; entriesRemaining: number } | { kind: 'exhausted' } {
  return wrongEntries >= MAX_OTP_ENTRIES ? { kind: 'exhausted' } : { kind: 'retry', entriesRemaining: MAX_OTP_ENTRIES - wrongEntries };
}
