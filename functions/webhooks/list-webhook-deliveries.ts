import { cursorPage } from '../../shared/domain/cursor-page.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { ListWebhookDeliveriesQuerySchema } from '../../shared/schemas/webhook-schemas.ts';
import { toDeliveryResource } from '../../shared/webhooks/delivery.ts';

/** Cursor pages (limit, startingAfter): the log only grows, so a page does not count the whole of it. */
export const { build, handler, schemas } = defineApiHandler(manifest.listWebhookDeliveries, { query: ListWebhookDeliveriesQuerySchema }, async (req, deps) => {
  const { limit, startingAfter, endpointId, eventId, state } = req.query;
  const { items, hasMore } = await deps.webhookDeliveries.list(req.auth.merchant.id, req.auth.mode, { limit, startingAfter, endpointId, eventId, state });
  return { statusCode: 200, body: cursorPage(items.map(toDeliveryResource), hasMore) };
}, { userTokens: userTokensFromEnvironment });
