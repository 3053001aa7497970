import type { AuthContext } from '../auth/authenticator.ts';
import type { CoreDeps } from '../deps.ts';
import { requireOwned } from '../auth/ownership.ts';
import { ConflictError } from '../errors.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import type { WebhookDelivery } from './delivery.ts';
import type { WebhookEndpoint } from './endpoint.ts';

/** Endpoints and deliveries belong to a merchant and a mode; anyone else's look exactly like missing ones. */
export async function findEndpoint(deps: CoreDeps, auth: AuthContext, id: string): Promise<WebhookEndpoint> {
  return requireOwned(await deps.webhookEndpoints.get(id), auth, { resource: 'webhook endpoint', field: 'id' });
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
  return requireOwned(await deps.webhookDeliveries.get(id), auth, { resource: 'webhook delivery', field: 'id' });
}
