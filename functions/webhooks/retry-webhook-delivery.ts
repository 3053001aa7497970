import { ConflictError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookDeliveryParamsSchema, WebhookDeliverySchema } from '../../shared/schemas/webhook-schemas.ts';
import { toDeliveryResource, type DeliveryMessage } from '../../shared/webhooks/delivery.ts';
import { findDelivery } from './webhook-access.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/**
 * One more attempt, now: also after the automatic retries are spent or the message went to the dead-letter queue.
 * It does not restart the automatic schedule; a delivery still being retried keeps its own schedule.
 */
export const { build, handler, schemas, parts } = defineApiHandler(
  'retryWebhookDelivery',
  { params: WebhookDeliveryParamsSchema, responses: { success: { 202: WebhookDeliverySchema }, errors: { 404: 'resource_missing.', 409: 'endpoint_deleted, endpoint_disabled.' } } },
  async (req, deps) => {
    const delivery = await findDelivery(deps, req.auth, req.params.id);
    const endpoint = await deps.webhookEndpoints.get(delivery.endpointId);
    if (!endpoint) throw new ConflictError('endpoint_deleted', 'The endpoint of this delivery was deleted; it cannot be sent again.');
    if (endpoint.status === 'disabled' && delivery.eventType !== 'webhook.test') {
      throw new ConflictError('endpoint_disabled', 'The endpoint of this delivery is disabled. Enable it (PATCH status "enabled") to retry.');
    }
    await deps.queues.webhookDeliveries.send({ deliveryId: delivery.id, manual: true } satisfies DeliveryMessage);
    return { statusCode: 202, body: toDeliveryResource(delivery) };
  },
  { parts: [queuesFromEnvironment] },
);
