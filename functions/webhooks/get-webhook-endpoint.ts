import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookEndpointParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { toEndpointResource } from '../../shared/webhooks/endpoint.ts';
import { findEndpoint } from './webhook-access.ts';

export const { build, handler } = defineApiHandler('getWebhookEndpoint', { params: WebhookEndpointParamsSchema }, async (req, deps) => {
  const endpoint = await findEndpoint(deps, req.auth, req.params.id);
  return { statusCode: 200, body: toEndpointResource(endpoint) };
});
