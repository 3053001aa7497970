import type { SQSClient } from '@aws-sdk/client-sqs';
import { MAX_DELAY_SECONDS, type MessageQueue } from './message-queue.ts';

/** SQS's longest visibility timeout. */
export const MAX_VISIBILITY_SECONDS = 12 * 3600;

const clamp = (value: number, max: number) => Math.min(max, Math.max(0, Math.ceil(value)));

/**
 * The AWS queue behind MessageQueue: bodies as JSON, delays and visibility clamped to SQS's limits. The SDK module
 * is imported on the first call, not at import, like the client of queuesFromEnvironment: it costs a Lambda
 * function about 30 ms of start-up, and several functions send only on some requests.
 */
export function createSqsQueue(client: SQSClient, queueUrl: string): MessageQueue {
  return {
    async send(body, { delaySeconds = 0 } = {}) {
      const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body), DelaySeconds: clamp(delaySeconds, MAX_DELAY_SECONDS) }));
    },
    async changeVisibility(receiptHandle, seconds) {
      const { ChangeMessageVisibilityCommand } = await import('@aws-sdk/client-sqs');
      await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: clamp(seconds, MAX_VISIBILITY_SECONDS) }));
    },
  };
}
