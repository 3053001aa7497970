/**
 * A manual retry of a delivery: one more attempt now, also after the automatic retries are spent or the message
 * went to the dead-letter queue. It does not restart the automatic schedule. Used by
 * POST /v1/webhooks/deliveries/{id}/retry and by the sandbox activity page's resend button.
 */
import type { AllDeps } from '../deps.ts';
import { ConflictError } from '../errors.ts';
import type { DeliveryMessage, WebhookDelivery } from './delivery.ts';

/**
 * Queues the attempt; 409 endpoint_deleted or endpoint_disabled when there is nowhere to send it (a sample event
 * still reaches a disabled endpoint, as its test does).
 *
 * @example
 * await retryDelivery(deps, delivery); // the send worker makes the attempt, marked manual
 */
export async function retryDelivery(deps: Pick<AllDeps, 'webhookEndpoints' | 'queues'>, delivery: WebhookDelivery): Promise<void> {
  const endpoint = await deps.webhookEndpoints.get(delivery.endpointId);
  if (!endpoint) throw new ConflictError('endpoint_deleted', 'The endpoint of this delivery was deleted; it cannot be sent again.');
  if (endpoint.status === 'disabled' && delivery.eventType !== 'webhook.test') {
    throw new ConflictError('endpoint_disabled', 'The endpoint of this delivery is disabled. Enable it (PATCH status "enabled") to retry.');
  }
  await deps.queues.webhookDeliveries.send({ deliveryId: delivery.id, manual: true } satisfies DeliveryMessage);
}
