/**
 * What each background queue and worker is for, in a line: their Lambda functions' descriptions and the dead-letter
 * alarms' texts. Kept out of the worker manifest (shared/workers.ts), which the workers bundle: no summary at run time.
 */
import type { QueueName, WorkerId } from '../../shared/workers.ts';

export const QUEUE_SUMMARIES: Record<QueueName, string> = {
  webhookDeliveries: 'One message per webhook delivery attempt; retries are delayed through the visibility timeout',
  sessionExpiry: 'Sessions to expire, each delayed to the exact second of its expiresAt',
};

export const WORKER_SUMMARIES: Record<WorkerId, string> = {
  dispatchWebhooks: 'Fans each new outbox event out to one delivery per subscribed, enabled endpoint',
  sendWebhooks: 'Signs and sends one delivery, logs the attempt, schedules the retry',
  planSessionExpiry: 'Creates the one-time expiry schedule of a new session and deletes it when the session closes earlier',
  handOverSessionExpiry: 'Fired by the schedule ahead of expiresAt: queues the expiry delayed to the exact second',
  expireSessions: 'Expires a session at expiresAt unless a charge is at the bank; writes session.expired once',
  notifyCardVerifications: "Daily: card.authentication_expiring 15, 7 and 1 days before a card verification's estimated end, each once",
};
