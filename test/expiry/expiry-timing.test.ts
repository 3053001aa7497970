import { describe, expect, it } from 'vitest';
import { SCHEDULE_LEAD_SECONDS, handoverDelaySeconds, planExpiry } from '../../shared/domain/expiry-timing.ts';

describe('planExpiry', () => {
  const now = Date.UTC(2026, 0, 1, 10, 0, 0);
  it('schedules a new open session ahead of expiresAt by the lead that covers Scheduler lateness', () => {
    expect(planExpiry('INSERT', { status: 'created', expiresAt: now + 300_000 }, now)).toEqual({ kind: 'schedule', at: now + 300_000 - SCHEDULE_LEAD_SECONDS * 1000 });
  });
  it('queues straight away when the schedule time has already passed', () => {
    expect(planExpiry('INSERT', { status: 'created', expiresAt: now + 60_500 }, now)).toEqual({ kind: 'queue', delaySeconds: 61 });
  });
  it('cancels when the session closes or completes before its schedule fires, and leaves other changes alone', () => {
    const later = now + SCHEDULE_LEAD_SECONDS * 1000 + 1000;
    expect(planExpiry('MODIFY', { status: 'expired', expiresAt: later }, now)).toEqual({ kind: 'cancel' });
    expect(planExpiry('MODIFY', { status: 'completed', expiresAt: later }, now)).toEqual({ kind: 'cancel' });
    expect(planExpiry('MODIFY', { status: 'processing', expiresAt: now + 1000 }, now)).toEqual({ kind: 'none' });
  });
  it('sends no cancel once the schedule has fired (it deleted itself), as for a session expired on time', () => {
    expect(planExpiry('MODIFY', { status: 'expired', expiresAt: now }, now)).toEqual({ kind: 'none' });
    expect(planExpiry('MODIFY', { status: 'completed', expiresAt: now + SCHEDULE_LEAD_SECONDS * 1000 }, now)).toEqual({ kind: 'none' });
    expect(planExpiry('MODIFY', { status: 'completed', expiresAt: now + SCHEDULE_LEAD_SECONDS * 1000 + 1 }, now)).toEqual({ kind: 'cancel' });
  });
});

describe('handoverDelaySeconds', () => {
  it('rounds up so the expiry is never early, and stays within 0..900', () => {
    expect(handoverDelaySeconds(10_001, 0)).toBe(11);
    expect(handoverDelaySeconds(0, 5_000)).toBe(0);
    expect(handoverDelaySeconds(2_000_000, 0)).toBe(900);
  });
});
