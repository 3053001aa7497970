import type { AuthContext } from '../../shared/auth/authenticator.ts';
import type { CoreDeps } from '../../shared/deps.ts';
import { ConflictError, NotFoundError } from '../../shared/errors.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import type { WebhookDelivery } from '../../shared/webhooks/delivery.ts';
import type { WebhookEndpoint } from '../../shared/webhooks/endpoint.ts';

/** Endpoints and deliveries belong to a merchant and a mode; anyone else's look exactly like missing ones. */
export async function findEndpoint(deps: CoreDeps, auth: AuthContext, id: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.webhookEndpoints.get(id);
  if (!endpoint || endpoint.merchantId !== auth.merchant.id || endpoint.mode !== auth.mode) throw new NotFoundError('webhook endpoint', 'id');
  return endpoint;
}

/** Saves a change of an endpoint read at `expectedVersion`; a change or deletion by another request meanwhile is a 409. */
export async function saveEndpoint(deps: CoreDeps, next: WebhookEndpoint, expectedVersion: number): Promise<void> {
  try {
    await deps.webhookEndpoints.save(next, expectedVersion);
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new ConflictError('endpoint_changed', 'The endpoint was changed or deleted by another request meanwhile. Read it again and retry.');
    throw error;
  }
}

export async function findDelivery(deps: CoreDeps, auth: AuthContext, id: string): Promise<WebhookDelivery> {
  const delivery = await deps.webhookDeliveries.get(id);
  if (!delivery || delivery.merchantId !== auth.merchant.id || delivery.mode !== auth.mode) throw new NotFoundError('webhook delivery', 'id');
  return delivery;
}
