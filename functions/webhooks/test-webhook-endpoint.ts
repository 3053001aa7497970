import { sampleEvent } from '../../shared/domain/sample-events.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { TestWebhookEndpointQuerySchema, WebhookEndpointParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { newDelivery, type DeliveryMessage } from '../../shared/webhooks/delivery.ts';
import { findEndpoint } from '../../shared/webhooks/webhook-access.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/**
 * A synthetic event for this endpoint alone, signed and authenticated like any event, even when the endpoint is
 * disabled or not subscribed: the event and its delivery are written together, then queued. `?type=` picks a sample
 * of any event type (shared/domain/sample-events.ts); the default is webhook.test.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.testWebhookEndpoint,
  { params: WebhookEndpointParamsSchema, query: TestWebhookEndpointQuerySchema },
  async (req, deps) => {
    const endpoint = await findEndpoint(deps, req.auth, req.params.id);
    const event = sampleEvent(req.query.type ?? 'webhook.test', { mode: req.auth.mode, now: req.now, endpointId: endpoint.id });
    const delivery = newDelivery({ merchantId: endpoint.merchantId, mode: endpoint.mode, endpointId: endpoint.id, eventId: event.id, eventType: event.type }, req.now);
    await deps.webhookDeliveries.createTargeted(delivery, event);
    await deps.queues.webhookDeliveries.send({ deliveryId: delivery.id } satisfies DeliveryMessage);
    return { statusCode: 202, body: { deliveryId: delivery.id, eventId: event.id } };
  },
  { queues: queuesFromEnvironment, userTokens: userTokensFromEnvironment },
);
