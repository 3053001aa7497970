import { buildEvent } from '../../shared/domain/events.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookEndpointParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { newDelivery, type DeliveryMessage } from '../../shared/webhooks/delivery.ts';
import { findEndpoint } from './webhook-access.ts';

/**
 * A synthetic webhook.test for this endpoint alone, signed and authenticated like any event, even when the
 * endpoint is disabled or not subscribed: the event and its delivery are written together, then queued.
 */
export const { build, handler } = defineApiHandler('testWebhookEndpoint', { params: WebhookEndpointParamsSchema }, async (req, deps) => {
  const endpoint = await findEndpoint(deps, req.auth, req.params.id);
  const event = buildEvent('webhook.test', req.auth.mode, new Date(req.now).toISOString(), {
    endpointId: endpoint.id,
    message: 'Test event sent with POST /v1/webhooks/endpoints/{id}/test.',
  });
  const delivery = newDelivery({ merchantId: endpoint.merchantId, mode: endpoint.mode, endpointId: endpoint.id, eventId: event.id, eventType: event.type }, req.now);
  await deps.webhookDeliveries.createTargeted(delivery, event);
  await deps.queues.webhookDeliveries.send({ deliveryId: delivery.id } satisfies DeliveryMessage);
  return { statusCode: 202, body: { deliveryId: delivery.id, eventId: event.id } };
});
