import { Duration } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { routes, type RouteDefinition } from '../../shared/routes.ts';
import { queues } from '../../shared/workers.ts';
import type { StageConfig } from '../stage-config.ts';
import type { DataStore } from './data-store.ts';
import type { ServiceFunction } from './service-function.ts';
import { WorkerFunction } from './worker-function.ts';
import { WorkQueue } from './work-queue.ts';

export interface WebhooksProps {
  config: StageConfig;
  dataStore: DataStore;
  /** The route functions of the API, by route id: the test and retry routes get the delivery queue. */
  routeFunctions: Record<string, ServiceFunction>;
}

/**
 * Webhook delivery: outbox events from the table's stream -> dispatcher (one delivery per subscribed endpoint)
 * -> delivery queue -> sender. Retries wait in the queue through the message's visibility timeout; after the last
 * one the message is redriven to the dead-letter queue, which alarms.
 */
export class Webhooks extends Construct {
  readonly deliveries: WorkQueue;
  readonly dispatcher: WorkerFunction;
  readonly sender: WorkerFunction;

  constructor(scope: Construct, id: string, { config, dataStore, routeFunctions }: WebhooksProps) {
    super(scope, id);
    this.deliveries = new WorkQueue(this, 'Deliveries', { name: 'webhookDeliveries' });
    const queueMap = { webhookDeliveries: this.deliveries.queue };
    this.dispatcher = new WorkerFunction(this, 'dispatchWebhooks', {
      config,
      dataStore,
      queues: queueMap,
      streamFailures: this.deliveries.deadLetterQueue,
    });
    // A send can take a token request, the POST, and after a 401 both again: 4 calls of at most 10 s.
    this.sender = new WorkerFunction(this, 'sendWebhooks', { config, dataStore, queues: queueMap, timeout: Duration.seconds(50) });

    // Routes that queue a delivery themselves (a test event, a manual retry), as their manifest entries say.
    for (const [routeId, definition] of Object.entries(routes) as [string, RouteDefinition][]) {
      const route = routeFunctions[routeId];
      if (!route || !definition.sendsTo?.includes('webhookDeliveries')) continue;
      route.function.addEnvironment(queues.webhookDeliveries.urlEnv, this.deliveries.queue.queueUrl);
      this.deliveries.queue.grantSendMessages(route.role);
    }
  }
}
