import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookEndpointParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { toEndpointResource } from '../../shared/webhooks/endpoint.ts';
import { findEndpoint } from '../../shared/webhooks/webhook-access.ts';

export const { build, handler, schemas } = defineApiHandler(manifest.getWebhookEndpoint, { params: WebhookEndpointParamsSchema }, async (req, deps) => {
  const endpoint = await findEndpoint(deps, req.auth, req.params.id);
  return { statusCode: 200, body: toEndpointResource(endpoint) };
}, { userTokens: userTokensFromEnvironment });
