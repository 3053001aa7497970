import { describe, expect, it } from 'vitest';
import {
  attemptsRemaining,
  decideMerchantExpire,
  decideTimedExpiry,
  effectiveState,
  type ClosedReason,
  type SessionState,
  type SessionStatus,
} from '../../shared/domain/session-state.ts';

const EXPIRES_AT = Date.UTC(2026, 0, 1, 12, 0, 0);
const BEFORE = EXPIRES_AT - 1;
const AT = EXPIRES_AT;
const AFTER = EXPIRES_AT + 3_600_000;

const IN_FLIGHT: SessionStatus[] = ['processing', 'otp_requested', 'otp_confirmed'];
const OPEN: SessionStatus[] = ['created', 'failed'];

const state = (status: SessionStatus, changes: Partial<SessionState> = {}): SessionState => ({
  status,
  closedReason: status === 'expired' ? 'merchant_request' : null,
  expiresAt: EXPIRES_AT,
  maxFailures: null,
  failureCount: 0,
  mode: 'test',
  ...changes,
});

describe('effectiveState', () => {
  it.each(OPEN.flatMap((status) => [AT, AFTER].map((now) => [status, now] as const)))(
    'shows a %s session as expired with reason expired at %i, at or past expiresAt with no charge in flight',
    (status, now) => {
      expect(effectiveState(state(status), now)).toEqual({ status: 'expired', closedReason: 'expired' });
    },
  );

  it.each(IN_FLIGHT)('leaves a %s session unchanged past expiresAt, because its charge is already at the bank', (status) => {
    expect(effectiveState(state(status), AFTER)).toEqual({ status, closedReason: null });
  });

  it.each([...OPEN, ...IN_FLIGHT, 'completed'] as SessionStatus[])('leaves a %s session unchanged before expiresAt', (status) => {
    expect(effectiveState(state(status), BEFORE)).toEqual({ status, closedReason: null });
  });

  it.each<[ClosedReason]>([['merchant_request'], ['max_failures_reached'], ['expired']])(
    'keeps the closedReason %s of an expired session past expiresAt',
    (closedReason) => {
      expect(effectiveState(state('expired', { closedReason }), AFTER)).toEqual({ status: 'expired', closedReason });
    },
  );

  it('leaves a completed session completed past expiresAt', () => {
    expect(effectiveState(state('completed'), AFTER)).toEqual({ status: 'completed', closedReason: null });
  });
});

describe('decideMerchantExpire', () => {
  it.each(OPEN)('closes a %s session with merchant_request before expiresAt', (status) => {
    expect(decideMerchantExpire(state(status), BEFORE, 'test')).toEqual({ kind: 'close', reason: 'merchant_request' });
  });

  it.each(OPEN.flatMap((status) => [AT, AFTER].map((now) => [status, now] as const)))(
    'closes a %s session with reason expired when time had already passed (%i): it reflects what truly happened',
    (status, now) => {
      expect(decideMerchantExpire(state(status), now, 'test')).toEqual({ kind: 'close', reason: 'expired' });
    },
  );

  it.each(IN_FLIGHT.flatMap((status) => [BEFORE, AFTER].map((now) => [status, now] as const)))(
    'rejects a %s session with charge_in_flight (now %i)',
    (status, now) => {
      expect(decideMerchantExpire(state(status), now, 'test')).toEqual({ kind: 'reject', code: 'charge_in_flight' });
    },
  );

  it.each([BEFORE, AFTER])('rejects a completed session with session_completed (now %i)', (now) => {
    expect(decideMerchantExpire(state('completed'), now, 'test')).toEqual({ kind: 'reject', code: 'session_completed' });
  });

  it.each<[ClosedReason, number]>([
    ['merchant_request', BEFORE],
    ['expired', AFTER],
    ['max_failures_reached', BEFORE],
  ])('leaves an already expired session (%s) unchanged, so no new event is sent (now %i)', (closedReason, now) => {
    expect(decideMerchantExpire(state('expired', { closedReason }), now, 'test')).toEqual({ kind: 'unchanged' });
  });

  it.each([...OPEN, ...IN_FLIGHT, 'completed', 'expired'] as SessionStatus[])(
    'rejects a %s session created in live mode when the caller uses a test key, with mode_mismatch',
    (status) => {
      expect(decideMerchantExpire(state(status, { mode: 'live' }), BEFORE, 'test')).toEqual({ kind: 'reject', code: 'mode_mismatch' });
    },
  );

  it('rejects a test session expired with a live key, with mode_mismatch', () => {
    expect(decideMerchantExpire(state('created', { mode: 'test' }), BEFORE, 'live')).toEqual({ kind: 'reject', code: 'mode_mismatch' });
  });

  it('closes a live session when the caller uses a live key', () => {
    expect(decideMerchantExpire(state('created', { mode: 'live' }), BEFORE, 'live')).toEqual({ kind: 'close', reason: 'merchant_request' });
  });
});

describe('decideTimedExpiry', () => {
  it.each(OPEN.flatMap((status) => [AT, AFTER].map((now) => [status, now] as const)))(
    'closes a %s session with reason expired at %i',
    (status, now) => {
      expect(decideTimedExpiry(state(status), now)).toEqual({ kind: 'close', reason: 'expired' });
    },
  );

  it.each(OPEN)('leaves a %s session open one millisecond before expiresAt', (status) => {
    expect(decideTimedExpiry(state(status), BEFORE)).toEqual({ kind: 'unchanged' });
  });

  it.each([...IN_FLIGHT, 'completed', 'expired'] as SessionStatus[])('leaves a %s session unchanged past expiresAt', (status) => {
    expect(decideTimedExpiry(state(status), AFTER)).toEqual({ kind: 'unchanged' });
  });
});

describe('attemptsRemaining', () => {
  it.each([0, 1, 5])('is null (unlimited) when maxFailures was not sent, after %i failures', (failureCount) => {
    expect(attemptsRemaining({ maxFailures: null, failureCount })).toBeNull();
  });

  it.each([
    // maxFailures counts failures tolerated: attempts = maxFailures + 1.
    [0, 0, 1],
    [0, 1, 0],
    [1, 0, 2],
    [1, 1, 1],
    [3, 2, 2],
    [10, 0, 11],
    [10, 10, 1],
    [10, 11, 0],
  ])('leaves maxFailures + 1 - failures: maxFailures %i after %i failures leaves %i', (maxFailures, failureCount, expected) => {
    expect(attemptsRemaining({ maxFailures, failureCount })).toBe(expected);
  });

  it.each([
    [0, 5],
    [2, 9],
  ])('is never negative: maxFailures %i after %i failures leaves 0', (maxFailures, failureCount) => {
    expect(attemptsRemaining({ maxFailures, failureCount })).toBe(0);
  });
});
