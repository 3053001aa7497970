/**
 * One-time schedules that invoke the schedule-triggered worker with a payload: EventBridge Scheduler in AWS, a
 * stand-in persisted in DynamoDB in the sandbox.
 *
 * @example
 * await deps.scheduler.schedule('session-expiry-cs_1', Date.parse('2026-01-01T10:03:30Z'), { reference: 'cs_1' });
 */
export interface OneTimeScheduler {
  /** Creates the schedule; one that exists under the name is left as it is. */
  schedule(name: string, at: number, payload: ScheduledPayload): Promise<void>;
  /** Deletes it; a missing schedule (fired, or never made) is fine. */
  cancel(name: string): Promise<void>;
}

export interface ScheduledPayload {
  /** The owner, so the sandbox can tell which merchant's timers are its own. */
  merchantId: string;
  [field: string]: unknown;
}
