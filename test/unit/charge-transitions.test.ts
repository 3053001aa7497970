import { describe, expect, it } from 'vitest';
import { afterWrongOtp, decideChargeStart, decideOtpEntry, DEFAULT_SESSION_FAILURES, MAX_OTP_ENTRIES, settleAttempt } from '../../shared/domain/charge-transitions.ts';
import { SESSION_STATUSES, type ClosedReason, type SessionState, type SessionStatus } from '../../shared/domain/session-state.ts';

const EXPIRES = Date.UTC(2026, 0, 1, 12, 5);
const BEFORE = EXPIRES - 1;
const AFTER = EXPIRES + 1;

const state = (overrides: Partial<SessionState> = {}): SessionState => ({
  status: 'created',
  closedReason: null,
  expiresAt: EXPIRES,
  maxFailures: null,
  failureCount: 0,
  mode: 'test',
  ...overrides,
});

describe('decideChargeStart', () => {
  const expected: Record<SessionStatus, ReturnType<typeof decideChargeStart>> = {
    created: { kind: 'start' },
    failed: { kind: 'start' },
    processing: { kind: 'refuse', refusal: { status: 409, code: 'charge_in_flight' } },
    otp_requested: { kind: 'refuse', refusal: { status: 409, code: 'charge_in_flight' } },
    otp_confirmed: { kind: 'refuse', refusal: { status: 409, code: 'charge_in_flight' } },
    completed: { kind: 'refuse', refusal: { status: 409, code: 'session_completed' } },
    expired: { kind: 'refuse', refusal: { status: 410, code: 'session_expired' } },
  };

  it.each(SESSION_STATUSES.map((s) => [s]))('decides %s before expiresAt as the spec says', (status) => {
    const closedReason: ClosedReason | null = status === 'expired' ? 'expired' : null;
    expect(decideChargeStart(state({ status, closedReason }), BEFORE)).toEqual(expected[status]);
  });

  it.each([['expired'], ['merchant_request']] as const)('refuses with 410 a session closed by %s', (closedReason) => {
    expect(decideChargeStart(state({ status: 'expired', closedReason }), BEFORE)).toEqual({ kind: 'refuse', refusal: { status: 410, code: 'session_expired' } });
  });

  it('refuses with 409 a session closed by max_failures_reached', () => {
    expect(decideChargeStart(state({ status: 'expired', closedReason: 'max_failures_reached' }), BEFORE)).toEqual({ kind: 'refuse', refusal: { status: 409, code: 'attempts_exhausted' } });
  });

  it.each([['created'], ['failed']] as const)('refuses with 410 a %s session at or past expiresAt, even before anyone wrote it expired', (status) => {
    expect(decideChargeStart(state({ status }), EXPIRES)).toEqual({ kind: 'refuse', refusal: { status: 410, code: 'session_expired' } });
  });

  it('refuses with 409 charge_in_flight, not 410, a session whose charge is at the bank past expiresAt', () => {
    expect(decideChargeStart(state({ status: 'processing' }), AFTER)).toEqual({ kind: 'refuse', refusal: { status: 409, code: 'charge_in_flight' } });
  });

  it('refuses with 409 an open session whose attempts are used up', () => {
    expect(decideChargeStart(state({ status: 'failed', maxFailures: 1, failureCount: 2 }), BEFORE)).toEqual({ kind: 'refuse', refusal: { status: 409, code: 'attempts_exhausted' } });
  });
});

describe('settleAttempt', () => {
  it('completes the session on approval without counting a failure', () => {
    expect(settleAttempt(state({ status: 'processing', maxFailures: 0, failureCount: 0 }), 'approved', BEFORE)).toEqual({ status: 'completed', closedReason: null, failureCount: 0 });
  });

  it('completes the session on an approval that arrives after expiresAt', () => {
    expect(settleAttempt(state({ status: 'processing' }), 'approved', AFTER).status).toBe('completed');
  });

  it.each([['declined'], ['failed']] as const)('counts a %s attempt and leaves the session failed while attempts remain', (outcome) => {
    expect(settleAttempt(state({ status: 'processing', maxFailures: 2, failureCount: 1 }), outcome, BEFORE)).toEqual({ status: 'failed', closedReason: null, failureCount: 2 });
  });

  it(`closes a session without maxFailures at its ${DEFAULT_SESSION_FAILURES}th failure, not before (issue 21 finding 6)`, () => {
    const before = DEFAULT_SESSION_FAILURES - 2;
    expect(settleAttempt(state({ status: 'processing', failureCount: before }), 'declined', BEFORE)).toEqual({ status: 'failed', closedReason: null, failureCount: before + 1 });
    expect(settleAttempt(state({ status: 'processing', failureCount: before + 1 }), 'declined', BEFORE)).toEqual({ status: 'expired', closedReason: 'max_failures_reached', failureCount: DEFAULT_SESSION_FAILURES });
    // An open session that failed more often before the default existed takes no further attempt.
    expect(decideChargeStart(state({ status: 'failed', failureCount: 50 }), BEFORE)).toEqual({ kind: 'refuse', refusal: { status: 409, code: 'attempts_exhausted' } });
  });

  it('closes with max_failures_reached at the first failure when maxFailures is 0', () => {
    expect(settleAttempt(state({ status: 'processing', maxFailures: 0 }), 'failed', BEFORE)).toEqual({ status: 'expired', closedReason: 'max_failures_reached', failureCount: 1 });
  });

  it.each([0, 1, 5, 10])('allows maxFailures + 1 attempts in all (maxFailures %i)', (maxFailures) => {
    let s = state({ maxFailures });
    let attempts = 0;
    while (s.status !== 'expired') {
      const settled = settleAttempt({ ...s, status: 'processing' }, 'declined', BEFORE);
      s = { ...s, ...settled };
      attempts++;
    }
    expect(attempts).toBe(maxFailures + 1);
    expect(s.closedReason).toBe('max_failures_reached');
  });

  it('closes with expired a session whose in-flight charge is rejected after expiresAt', () => {
    expect(settleAttempt(state({ status: 'processing', maxFailures: 3 }), 'declined', AFTER)).toEqual({ status: 'expired', closedReason: 'expired', failureCount: 1 });
  });

  it('prefers max_failures_reached when a late rejection also exhausts the attempts', () => {
    expect(settleAttempt(state({ status: 'otp_confirmed', maxFailures: 0 }), 'failed', AFTER)).toEqual({ status: 'expired', closedReason: 'max_failures_reached', failureCount: 1 });
  });
});

describe('decideOtpEntry', () => {
  it('confirms a code entered before expiresAt on a session waiting for it', () => {
    expect(decideOtpEntry(state({ status: 'otp_requested' }), BEFORE)).toEqual({ kind: 'confirm' });
  });

  it('ends the attempt when the code comes at or after expiresAt', () => {
    expect(decideOtpEntry(state({ status: 'otp_requested' }), EXPIRES)).toEqual({ kind: 'too_late' });
  });

  it.each([
    ['created', null, { status: 409, code: 'otp_not_requested' }],
    ['failed', null, { status: 409, code: 'otp_not_requested' }],
    ['processing', null, { status: 409, code: 'charge_in_flight' }],
    ['otp_confirmed', null, { status: 409, code: 'charge_in_flight' }],
    ['completed', null, { status: 409, code: 'session_completed' }],
    ['expired', 'merchant_request', { status: 410, code: 'session_expired' }],
    ['expired', 'max_failures_reached', { status: 409, code: 'attempts_exhausted' }],
  ] as const)('refuses a code on a %s session (%s)', (status, closedReason, refusal) => {
    expect(decideOtpEntry(state({ status, closedReason }), BEFORE)).toEqual({ kind: 'refuse', refusal });
  });
});

describe('afterWrongOtp', () => {
  it(`allows ${MAX_OTP_ENTRIES} entries, then ends the attempt`, () => {
    expect(afterWrongOtp(1)).toEqual({ kind: 'retry', entriesRemaining: 2 });
    expect(afterWrongOtp(2)).toEqual({ kind: 'retry', entriesRemaining: 1 });
    expect(afterWrongOtp(3)).toEqual({ kind: 'exhausted' });
  });
});
