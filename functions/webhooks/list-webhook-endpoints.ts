import { pageAfter } from '../../shared/domain/cursor-page.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { ListWebhookEndpointsQuerySchema } from '../../shared/schemas/webhook-schemas.ts';
import { toEndpointResource } from '../../shared/webhooks/endpoint.ts';

/** In creation order, in the cursor envelope of every open list; at most 16 per mode, so read whole and paged here. */
export const { build, handler, schemas } = defineApiHandler(
  manifest.listWebhookEndpoints,
  { query: ListWebhookEndpointsQuerySchema },
  async (req, deps) => {
    const endpoints = await deps.webhookEndpoints.list(req.auth.merchant.id, req.auth.mode);
    return { statusCode: 200, body: pageAfter(endpoints.map(toEndpointResource), req.query) };
  },
  { userTokens: userTokensFromEnvironment },
);
