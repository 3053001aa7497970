import type { Deps } from '../../shared/deps.ts';
import { NotFoundError } from '../../shared/errors.ts';
import type { ApiKeyRecord } from '../../shared/store/api-key-store.ts';

/** A key of the caller's merchant; another merchant's is indistinguishable from a missing one. */
export async function findKey(deps: Deps, merchantId: string, id: string): Promise<ApiKeyRecord> {
  const key = await deps.apiKeys.get(id);
  if (!key || key.merchantId !== merchantId) throw new NotFoundError('key', 'id');
  return key;
}

/** A key as the dashboard lists it: its id (the SHA-256 the table keys it by), prefix and last four, never the key. */
export function toKeySummary(key: ApiKeyRecord) {
  const [prefix = '', last4 = ''] = key.hint.split('...');
  return { id: key.keyHash, kind: key.kind, mode: key.mode, prefix, last4, status: key.status, createdAt: key.createdAt };
}
