/**
 * Platform-team operations on merchants and keys, shared by the admin CLI and the sandbox's seeding.
 * Works on whatever stores it is given: the sandbox's DynamoDB Local or a deployed table.
 */
import { defaultGateways, type Merchant } from '../domain/merchant.ts';
import type { Mode } from '../domain/session-state.ts';
import { randomToken } from '../ids.ts';
import { hashApiKey, keyHint, type ApiKeyRecord, type ApiKeyStore, type KeyKind } from '../store/api-key-store.ts';
import type { MerchantStore } from '../store/merchant-store.ts';
import { MerchantNotFoundError } from './errors.ts';

export const KEY_PREFIX: Record<KeyKind, string> = { secret: 'sk', restricted: 'rk', publishable: 'pk' };

export interface MerchantKeys {
  secretTest: string;
  publishableTest: string;
  restrictedTest: string;
  secretLive: string;
  publishableLive: string;
  restrictedLive: string;
}

export interface AdminStores {
  merchants: MerchantStore;
  apiKeys: ApiKeyStore;
}

/** The merchant, or MerchantNotFoundError: every admin operation names an existing merchant. */
export async function requireMerchant(merchants: MerchantStore, merchantId: string): Promise<Merchant> {
  const merchant = await merchants.get(merchantId);
  if (!merchant) throw new MerchantNotFoundError(merchantId);
  return merchant;
}

/** A new key and the record to store for it (its hash, never the key): the clear key is for the caller to show once. */
export function newKeyRecord(merchantId: string, kind: KeyKind, mode: Mode, now: Date): { key: string; record: ApiKeyRecord } {
  const key = `${KEY_PREFIX[kind]}_${mode}_${randomToken(32)}`;
  return { key, record: { keyHash: hashApiKey(key), merchantId, mode, kind, status: 'active', createdAt: now.toISOString(), hint: keyHint(key) } };
}

/** Issues a new key; its clear value is returned once and only its hash is stored. */
export async function issueKey(stores: AdminStores, merchantId: string, kind: KeyKind, mode: Mode, now: Date): Promise<string> {
  const { key, record } = newKeyRecord(merchantId, kind, mode, now);
  await stores.apiKeys.create(record);
  return key;
}

/** The six keys a new merchant gets: each kind in each mode. */
const FIRST_KEYS = {
  secretTest: ['secret', 'test'],
  publishableTest: ['publishable', 'test'],
  restrictedTest: ['restricted', 'test'],
  secretLive: ['secret', 'live'],
  publishableLive: ['publishable', 'live'],
  restrictedLive: ['restricted', 'live'],
} as const satisfies Record<keyof MerchantKeys, readonly [KeyKind, Mode]>;

/** A new merchant, provisioned, with test mode on for every gateway that has a test environment, and all six keys. */
export async function createMerchant(
  stores: AdminStores,
  { name, now, provisioned = true }: { name: string; now: Date; provisioned?: boolean },
): Promise<{ merchant: Merchant; keys: MerchantKeys }> {
  const merchant: Merchant = {
    id: `mer_${randomToken(16)}`,
    name,
    createdAt: now.toISOString(),
    provisioned,
    gateways: defaultGateways(),
    testMode: { bank_direct: true },
    credentialsLoaded: {},
    rateLimits: {},
  };
  const issued = Object.entries(FIRST_KEYS).map(([name, [kind, mode]]) => ({ name, ...newKeyRecord(merchant.id, kind, mode, now) }));
  // One transaction: a merchant never exists without its keys, nor a key without its merchant.
  await stores.merchants.create(merchant, { alsoWrite: issued.map(({ record }) => stores.apiKeys.createItem(record)) });
  const keys = Object.fromEntries(issued.map(({ name, key }) => [name, key])) as Record<keyof MerchantKeys, string>;
  return { merchant, keys };
}
