import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookEndpointListSchema } from '../../shared/schemas/webhook-schemas.ts';
import { toEndpointResource } from '../../shared/webhooks/endpoint.ts';

export const { build, handler, schemas, parts } = defineApiHandler('listWebhookEndpoints', { responses: { success: { 200: WebhookEndpointListSchema } } }, async (req, deps) => {
  const endpoints = await deps.webhookEndpoints.list(req.auth.merchant.id, req.auth.mode);
  return { statusCode: 200, body: { data: endpoints.map(toEndpointResource) } };
});
