/**
 * Key rotation for the platform team: a new key is issued beside the old ones, which stay valid until revoked, so a
 * merchant can deploy the new key before the old one stops working.
 */
import type { Mode } from '../domain/session-state.ts';
import { hashApiKey, keyHint, parseApiKey, type ApiKeyRecord, type KeyKind } from '../store/api-key-store.ts';
import { AdminError, KeyNotFoundError } from './errors.ts';
import { issueKey, requireMerchant, type AdminStores } from './merchant-admin.ts';

/**
 * Issues another key of that kind and mode. The clear key is returned here once; only its hash is stored.
 *
 * @example
 * const { key } = await rotateKey(stores, 'mer_123', 'secret', 'live', new Date());
 */
export async function rotateKey(
  stores: AdminStores,
  merchantId: string,
  kind: KeyKind,
  mode: Mode,
  now: Date,
): Promise<{ key: string; keyHash: string; hint: string }> {
  await requireMerchant(stores.merchants, merchantId);
  const key = await issueKey(stores, merchantId, kind, mode, now);
  return { key, keyHash: hashApiKey(key), hint: keyHint(key) };
}

/** Identifies a key by its clear value or by its SHA-256 hash (as `keys list` shows it). */
export type KeyReference = { key: string } | { keyHash: string };

/**
 * Revokes one key of this merchant; a key of another merchant is refused as if it did not exist. API calls with it
 * fail in every instance within KEY_REVOCATION_BOUND_MS (5 s, shared/auth/authenticator.ts). Revoking twice is harmless.
 *
 * @example
 * await revokeKey(stores, 'mer_123', { keyHash: '9f86d0…' });
 */
export async function revokeKey(stores: AdminStores, merchantId: string, reference: KeyReference): Promise<ApiKeyRecord> {
  const keyHash = 'key' in reference ? hashOfKey(reference.key) : reference.keyHash.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(keyHash)) throw new AdminError('A key hash is 64 hexadecimal characters (SHA-256), as `keys list` shows it.');
  const record = await stores.apiKeys.get(keyHash);
  if (!record || record.merchantId !== merchantId) throw new KeyNotFoundError(merchantId);
  return stores.apiKeys.revoke(keyHash);
}

/** The merchant's keys, oldest first: hints, kinds, modes, statuses and hashes, never the clear keys. */
export async function listKeys(stores: AdminStores, merchantId: string): Promise<ApiKeyRecord[]> {
  await requireMerchant(stores.merchants, merchantId);
  return (await stores.apiKeys.listForMerchant(merchantId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

function hashOfKey(key: string): string {
  if (!parseApiKey(key)) throw new AdminError('That is not an API key (sk_, rk_ or pk_ followed by test_ or live_).');
  return hashApiKey(key);
}
