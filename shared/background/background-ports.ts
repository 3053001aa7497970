import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import { requireEnv } from '../config.ts';
import { createHttpPost, type HttpPost } from '../webhooks/http-post.ts';
import { queues, type QueueName } from '../workers.ts';
import { createEventBridgeScheduler } from './eventbridge-scheduler.ts';
import type { MessageQueue } from './message-queue.ts';
import type { OneTimeScheduler } from './one-time-scheduler.ts';
import { createSqsQueue } from './sqs-queue.ts';

/** What the workers use to reach outside the table: queues, the scheduler, and outbound HTTP. */
export interface BackgroundPorts {
  queues: Record<QueueName, MessageQueue>;
  scheduler: OneTimeScheduler;
  httpPost: HttpPost;
}

/** Builds on first call, so a function that never uses a port needs neither its variable nor its grant. */
function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/**
 * The AWS ports, from the environment: SQS queue URLs (see shared/workers.ts), the schedule group, its target and
 * role. Outbound HTTP refuses loopback, private, link-local and metadata addresses.
 */
export function backgroundFromEnvironment(env: NodeJS.ProcessEnv = process.env): BackgroundPorts {
  const sqs = onFirstUse(() => new SQSClient({}));
  const queue = (name: QueueName): MessageQueue => {
    const get = onFirstUse(() => createSqsQueue(sqs(), requireEnv(queues[name].urlEnv, env)));
    return { send: (body, options) => get().send(body, options), changeVisibility: (handle, seconds) => get().changeVisibility(handle, seconds) };
  };
  const scheduler = onFirstUse(() =>
    createEventBridgeScheduler(new SchedulerClient({}), {
      groupName: requireEnv('SCHEDULE_GROUP_NAME', env),
      targetArn: requireEnv('SCHEDULE_TARGET_ARN', env),
      roleArn: requireEnv('SCHEDULER_ROLE_ARN', env),
    }),
  );
  return {
    queues: { webhookDeliveries: queue('webhookDeliveries'), sessionExpiry: queue('sessionExpiry') },
    scheduler: { schedule: (...a) => scheduler().schedule(...a), cancel: (name) => scheduler().cancel(name) },
    httpPost: createHttpPost({ allowLoopback: false }),
  };
}
