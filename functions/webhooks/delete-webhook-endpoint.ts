import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookEndpointParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { findEndpoint } from '../../shared/webhooks/webhook-access.ts';

/** Deliveries still queued for the endpoint find it gone and stop; its delivery history stays listable. */
export const { build, handler, schemas } = defineApiHandler(manifest.deleteWebhookEndpoint, { params: WebhookEndpointParamsSchema }, async (req, deps) => {
  const endpoint = await findEndpoint(deps, req.auth, req.params.id);
  await deps.webhookEndpoints.delete(endpoint.id);
  return { statusCode: 200, body: { id: endpoint.id, deleted: true } };
}, { userTokens: userTokensFromEnvironment });
