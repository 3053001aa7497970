import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookDeliveryParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { toDeliveryResource } from '../../shared/webhooks/delivery.ts';
import { findDelivery } from '../../shared/webhooks/webhook-access.ts';

export const { build, handler, schemas } = defineApiHandler(manifest.getWebhookDelivery, { params: WebhookDeliveryParamsSchema }, async (req, deps) => {
  return { statusCode: 200, body: toDeliveryResource(await findDelivery(deps, req.auth, req.params.id)) };
}, { userTokens: userTokensFromEnvironment });
