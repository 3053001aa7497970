import type { HttpPost } from '../webhooks/http-post.ts';
import type { QueueName } from '../workers.ts';
import type { MessageQueue } from './message-queue.ts';
import type { OneTimeScheduler } from './one-time-scheduler.ts';

/**
 * What the workers use to reach outside the table: queues, the scheduler, and outbound HTTP. In AWS each comes from
 * its own module (queues-from-environment.ts, scheduler-from-environment.ts, shared/webhooks/oauth-tokens.ts), so a
 * function loads only the AWS clients it uses; the sandbox passes its stand-ins.
 */
export interface BackgroundPorts {
  queues: Record<QueueName, MessageQueue>;
  scheduler: OneTimeScheduler;
  httpPost: HttpPost;
}

/** Builds on first call, so a function that never uses a port needs neither its variable nor its grant. */
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
