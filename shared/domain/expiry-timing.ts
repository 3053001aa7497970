/**
 * When the timed expiry of a session runs. EventBridge Scheduler may invoke up to 60 seconds after the time it is
 * given, too late for "within a few seconds of expiresAt". So the schedule fires early, at expiresAt minus a lead
 * longer than that lateness, and hands over to a queue message delayed by the exact time still remaining; SQS
 * delays are accurate to about a second. See docs/webhooks-and-expiry.md. Pure.
 */
import { isFinal, type SessionStatus } from './session-state.ts';

/** More than Scheduler's 60 seconds of lateness, with room for the handover itself. */
export const SCHEDULE_LEAD_SECONDS = 90;
/** SQS's longest message delay: the handover can wait at most this long. */
export const MAX_HANDOVER_DELAY_SECONDS = 900;

export const expiryScheduleName = (reference: string): string => `session-expiry-${reference}`;

export type ExpiryPlan = { kind: 'schedule'; at: number } | { kind: 'queue'; delaySeconds: number } | { kind: 'cancel' } | { kind: 'none' };

/**
 * What a change of a session item means for its timer: a new open session gets one (a schedule, or straight a
 * queue message when the schedule's time has already passed); a session that closed or completed before its
 * schedule's time loses it. One closed later needs nothing: its schedule has fired and deleted itself
 * (ActionAfterCompletion), or there never was one, and a late one's hand-over finds the session closed.
 */
export function planExpiry(change: 'INSERT' | 'MODIFY', session: { status: SessionStatus; expiresAt: number }, now: number): ExpiryPlan {
  const at = session.expiresAt - SCHEDULE_LEAD_SECONDS * 1000;
  if (isFinal(session.status)) return change === 'MODIFY' && at > now ? { kind: 'cancel' } : { kind: 'none' };
  if (change !== 'INSERT') return { kind: 'none' };
  return at > now ? { kind: 'schedule', at } : { kind: 'queue', delaySeconds: handoverDelaySeconds(session.expiresAt, now) };
}

/** Whole seconds from now to expiresAt, rounded up so the message is never early, within SQS's limits. */
export function handoverDelaySeconds(expiresAt: number, now: number): number {
  return Math.min(MAX_HANDOVER_DELAY_SECONDS, Math.max(0, Math.ceil((expiresAt - now) / 1000)));
}
