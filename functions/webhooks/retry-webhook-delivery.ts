import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { WebhookDeliveryParamsSchema } from '../../shared/schemas/webhook-schemas.ts';
import { toDeliveryResource } from '../../shared/webhooks/delivery.ts';
import { retryDelivery } from '../../shared/webhooks/manual-retry.ts';
import { findDelivery } from '../../shared/webhooks/webhook-access.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/**
 * One more attempt, now: also after the automatic retries are spent or the message went to the dead-letter queue.
 * It does not restart the automatic schedule; a delivery still being retried keeps its own schedule.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.retryWebhookDelivery,
  { params: WebhookDeliveryParamsSchema },
  async (req, deps) => {
    const delivery = await findDelivery(deps, req.auth, req.params.id);
    await retryDelivery(deps, delivery);
    return { statusCode: 202, body: toDeliveryResource(delivery) };
  },
  { queues: queuesFromEnvironment, userTokens: userTokensFromEnvironment },
);
