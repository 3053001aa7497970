import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BackgroundPorts } from '../../shared/background/background-ports.ts';
import type { Clock } from '../../shared/clock.ts';
import { createHttpPost } from '../../shared/webhooks/http-post.ts';
import { queues } from '../../shared/workers.ts';
import type { LocalBackground } from './background-runner.ts';
import { localClient } from './dynamodb-local.ts';
import { LocalQueue } from './local-queue.ts';
import { LocalScheduler } from './local-scheduler.ts';
import { OpenDeliveries } from './open-deliveries.ts';
import { StreamReader } from './stream-reader.ts';

/**
 * The sandbox's stand-ins for what AWS runs around the workers: the DynamoDB Local stream, in-process queues and
 * the scheduler kept in the table. Outbound HTTP may reach the loopback interface, so a developer's local
 * receiver gets webhooks; everything else is refused as in AWS.
 */
export function createLocalBackground(options: {
  db: DynamoDBDocumentClient;
  dynamoEndpoint: string;
  tableName: string;
  clock: Clock;
  owns: (merchantId: string) => boolean;
  /** Names this sandbox's stream checkpoints (see StreamReader) and its queued-delivery notes (see OpenDeliveries). */
  streamReaderId: string;
}): { ports: BackgroundPorts; local: LocalBackground; close(): void } {
  const streamsClient = new DynamoDBStreamsClient({ endpoint: options.dynamoEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const tablesClient = localClient(options.dynamoEndpoint);
  const webhookDeliveries = new LocalQueue('webhookDeliveries', queues.webhookDeliveries, options.clock);
  const local: LocalBackground = {
    streams: new StreamReader(streamsClient, tablesClient, options.db, options.tableName, options.streamReaderId, options.clock),
    queues: { webhookDeliveries, sessionExpiry: new LocalQueue('sessionExpiry', queues.sessionExpiry, options.clock) },
    scheduler: new LocalScheduler(options.db, options.tableName, options.clock, options.owns),
    openDeliveries: new OpenDeliveries(options.db, options.tableName, options.clock, options.streamReaderId, webhookDeliveries),
    owns: options.owns,
  };
  return {
    local,
    ports: {
      queues: { ...local.queues, webhookDeliveries: local.openDeliveries.tracked() },
      scheduler: local.scheduler,
      httpPost: createHttpPost({ allowLoopback: true }),
    },
    close: () => {
      streamsClient.destroy();
      tablesClient.destroy();
    },
  };
}
