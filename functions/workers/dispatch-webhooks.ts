import { EventType } from '@aws-lambda-powertools/batch';
import type { DynamoDBRecord } from 'aws-lambda';
import { newImageOf } from '../../shared/background/stream-image.ts';
import { defineRecordWorker, type RecordBatch } from '../../shared/background/define-record-worker.ts';
import { sharedRead } from '../../shared/background/shared-reads.ts';
import type { WorkerDeps } from '../../shared/background/define-worker.ts';
import type { EventEnvelope } from '../../shared/domain/events.ts';
import { newDelivery, type DeliveryMessage } from '../../shared/webhooks/delivery.ts';
import { isSubscribed } from '../../shared/webhooks/subscriptions.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/**
 * One delivery per enabled endpoint of the event's merchant and mode that subscribes to its type. The delivery id
 * comes from the event and the endpoint, so a record seen twice creates nothing new and queues nothing twice. The
 * records of a batch that belong to one merchant and mode (25 sessions expiring at once, a burst of charges) share
 * one read of its endpoints.
 */
async function dispatch(record: DynamoDBRecord, deps: WorkerDeps<'dispatchWebhooks'>, batch: RecordBatch<DynamoDBRecord>): Promise<void> {
  const item = newImageOf(record);
  // Targeted events (webhook.test) were queued by the operation that made them.
  if (record.eventName !== 'INSERT' || !item || item.type !== 'event' || item.targetEndpointId) return;
  const merchantId = item.merchantId as string;
  const envelope = item.envelope as EventEnvelope;
  const endpoints = await sharedRead(batch, `${merchantId}#${envelope.env}`, () => deps.webhookEndpoints.list(merchantId, envelope.env));
  for (const endpoint of endpoints) {
    if (endpoint.status !== 'enabled' || !isSubscribed(endpoint.enabledEvents, envelope.type)) continue;
    const delivery = newDelivery({ merchantId, mode: envelope.env, endpointId: endpoint.id, eventId: envelope.id, eventType: envelope.type }, deps.clock.now());
    const created = await deps.webhookDeliveries.createIfAbsent(delivery);
    // An earlier run that died between the create and the send left it unsent: queue it again (at-least-once; the
    // sender skips a delivery that has finished meanwhile). One already attempted has its own message.
    if (!created && !(await isUnsent(deps, delivery.id))) continue;
    try {
      await deps.queues.webhookDeliveries.send({ deliveryId: delivery.id } satisfies DeliveryMessage);
    } catch (error) {
      // Unqueued, the delivery would never be sent; without it, the retried record creates and queues it again.
      if (created) await deps.webhookDeliveries.deleteUnsent(delivery.id);
      throw error;
    }
  }
}

async function isUnsent(deps: WorkerDeps<'dispatchWebhooks'>, deliveryId: string): Promise<boolean> {
  const existing = await deps.webhookDeliveries.get(deliveryId);
  return existing !== null && existing.state === 'pending' && existing.attemptCount === 0;
}

export const { build, handler } = defineRecordWorker('dispatchWebhooks', EventType.DynamoDBStreams, dispatch, { queues: queuesFromEnvironment });
