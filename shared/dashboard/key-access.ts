import { leastRoleToManageKey } from '../auth/key-permissions.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import { roleAtLeast } from '../domain/roles.ts';
import type { CoreDeps } from '../deps.ts';
import { NotFoundError, PermissionError } from '../errors.ts';
import type { ApiKeyRecord } from '../store/api-key-store.ts';

/**
 * A key of the user's merchant that the user's role may roll or revoke (a live secret key: admins only, 403 for
 * others); another merchant's is indistinguishable from a missing one.
 */
export async function findManagedKey(deps: CoreDeps, user: DashboardUser, id: string): Promise<ApiKeyRecord> {
  const key = await deps.apiKeys.get(id);
  if (!key || key.merchantId !== user.merchantId) throw new NotFoundError('key', 'id');
  const required = leastRoleToManageKey(key);
  if (!roleAtLeast(user.role, required)) {
    throw new PermissionError(`Your role (${user.role}) cannot roll or revoke a live secret key: it moves money, so it needs ${required}. Ask an admin of your account.`);
  }
  return key;
}

/** A key as the dashboard lists it: its id (the SHA-256 the table keys it by), prefix and last four, never the key. */
export function toKeySummary(key: ApiKeyRecord) {
  const [prefix = '', last4 = ''] = key.hint.split('...');
  return { id: key.keyHash, kind: key.kind, mode: key.mode, prefix, last4, status: key.status, createdAt: key.createdAt };
}
