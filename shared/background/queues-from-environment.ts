import { requireEnv } from '../config.ts';
import type { PartsFactory } from '../deps.ts';
import { queues, type QueueName } from '../workers.ts';
import { onFirstUse } from './background-ports.ts';
import type { MessageQueue } from './message-queue.ts';
import { createSqsQueue } from './sqs-queue.ts';

/**
 * The SQS queues of the manifest (shared/workers.ts), each reading its URL variable on first use: a function has
 * only the URLs of the queues it sends to or consumes. The SQS client too is loaded on first use, not at import
 * (about 30 ms of a Lambda function's start-up), as several functions send only on some requests.
 */
export const queuesFromEnvironment: PartsFactory<'queues'> = (env) => {
  const sqs = onFirstUse(async () => new (await import('@aws-sdk/client-sqs')).SQSClient({}));
  const queue = (name: QueueName): MessageQueue => {
    const get = onFirstUse(async () => createSqsQueue(await sqs(), requireEnv(queues[name].urlEnv, env)));
    return {
      send: async (body, options) => (await get()).send(body, options),
      changeVisibility: async (handle, seconds) => (await get()).changeVisibility(handle, seconds),
    };
  };
  return { queues: { webhookDeliveries: queue('webhookDeliveries'), sessionExpiry: queue('sessionExpiry') } };
};
