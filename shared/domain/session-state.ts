/**
 * The session state machine of the spec, as plain functions over a small state record.
 * No I/O: handlers read a session, ask these functions what to do, and write the answer conditionally.
 */

export const SESSION_STATUSES = ['created', 'otp_requested', 'otp_confirmed', 'processing', 'completed', 'failed', 'expired'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const CLOSED_REASONS = ['expired', 'max_failures_reached', 'merchant_request'] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];

export type Mode = 'test' | 'live';

export interface SessionState {
  status: SessionStatus;
  closedReason: ClosedReason | null;
  /** Epoch milliseconds. */
  expiresAt: number;
  maxFailures: number | null;
  failureCount: number;
  mode: Mode;
}

const IN_FLIGHT: ReadonlySet<SessionStatus> = new Set(['processing', 'otp_requested', 'otp_confirmed']);
const FINAL: ReadonlySet<SessionStatus> = new Set(['completed', 'expired']);

/** A charge has been sent (or is being confirmed) and its answer is awaited. */
export const isInFlight = (status: SessionStatus): boolean => IN_FLIGHT.has(status);
/** A closed session is never reopened. */
export const isFinal = (status: SessionStatus): boolean => FINAL.has(status);

/**
 * The state a reader must see now: a session past expiresAt with no charge in flight is expired,
 * even before any background job wrote it.
 */
export function effectiveState(s: SessionState, now: number): Pick<SessionState, 'status' | 'closedReason'> {
  if (!isFinal(s.status) && !isInFlight(s.status) && now >= s.expiresAt) {
    return { status: 'expired', closedReason: 'expired' };
  }
  return { status: s.status, closedReason: s.closedReason };
}

/** Attempts left before the session closes: maxFailures + 1 in all, null when unlimited. */
export function attemptsRemaining(s: Pick<SessionState, 'maxFailures' | 'failureCount'>): number | null {
  if (s.maxFailures === null) return null;
  return Math.max(0, s.maxFailures + 1 - s.failureCount);
}

export type ExpireDecision =
  | { kind: 'close'; reason: ClosedReason }
  | { kind: 'unchanged' }
  | { kind: 'reject'; code: 'mode_mismatch' | 'session_completed' | 'charge_in_flight' };

/** POST /v1/sessions/{reference}/expire, row by row of the spec's transition table. */
export function decideMerchantExpire(s: SessionState, now: number, callerMode: Mode): ExpireDecision {
  if (s.mode !== callerMode) return { kind: 'reject', code: 'mode_mismatch' };
  if (s.status === 'completed') return { kind: 'reject', code: 'session_completed' };
  if (s.status === 'expired') return { kind: 'unchanged' };
  if (isInFlight(s.status)) return { kind: 'reject', code: 'charge_in_flight' };
  // Time had already passed: record what truly happened, not the merchant's call.
  if (now >= s.expiresAt) return { kind: 'close', reason: 'expired' };
  return { kind: 'close', reason: 'merchant_request' };
}

/** The scheduled expiry at expiresAt: closes only an open session with no charge at the bank. */
export function decideTimedExpiry(s: SessionState, now: number): ExpireDecision {
  if (isFinal(s.status) || isInFlight(s.status) || now < s.expiresAt) return { kind: 'unchanged' };
  return { kind: 'close', reason: 'expired' };
}
