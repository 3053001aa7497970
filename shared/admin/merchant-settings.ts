/**
 * Platform-team changes to a merchant's configuration. The API caches a merchant for the key cache TTL (30 s by
 * default), so a change reaches running functions within that time.
 */
import { GATEWAYS, OPERATION_CLASSES, type Currency, type GatewayId, type Merchant, type OperationClass, type RateLimit } from '../domain/merchant.ts';
import { BrandingError, type BrandingInput } from '../domain/merchant-branding.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import { limitFor } from '../domain/rate-limits.ts';
import type { ApiKeyRecord } from '../store/api-key-store.ts';
import { AdminError, MerchantNotFoundError } from './errors.ts';
import { listKeys } from './key-admin.ts';
import { requireMerchant, type AdminStores } from './merchant-admin.ts';

export interface MerchantOverview {
  merchant: Merchant;
  /** The limits in force per operation class, and whether they are the spec's defaults or an override. */
  limits: Record<OperationClass, RateLimit & { overridden: boolean }>;
  /** Hints and statuses only: the clear keys are never stored. */
  keys: ApiKeyRecord[];
}

/**
 * Configuration, limits in force and keys (hint, kind, mode, status, hash) of a merchant; nothing secret.
 *
 * @example
 * const { merchant, limits, keys } = await describeMerchant(stores, 'mer_123');
 */
export async function describeMerchant(stores: AdminStores, merchantId: string): Promise<MerchantOverview> {
  const [merchant, keys] = await Promise.all([requireMerchant(stores.merchants, merchantId), listKeys(stores, merchantId)]);
  const limits = Object.fromEntries(
    OPERATION_CLASSES.map((operationClass) => [operationClass, { ...limitFor(merchant, operationClass), overridden: operationClass in merchant.rateLimits }]),
  ) as MerchantOverview['limits'];
  return { merchant, limits, keys };
}

/** Onboarding finished: the merchant may open sessions. */
export async function provisionMerchant(stores: AdminStores, merchantId: string): Promise<Merchant> {
  return onExistingMerchant(merchantId, () => stores.merchants.update(merchantId, { provisioned: true }));
}

/**
 * Switches test mode for one gateway. Only a gateway with a test environment can have it on.
 *
 * @example
 * await setTestMode(stores, 'mer_123', 'bank_direct', false); // test keys now get 409 test_mode_off
 */
export async function setTestMode(stores: AdminStores, merchantId: string, gateway: GatewayId, on: boolean): Promise<Merchant> {
  if (on && !GATEWAYS[gateway].supportsTestMode) {
    throw new AdminError(`The ${gateway} gateway has no test environment, so test mode cannot be switched on for it.`);
  }
  return onExistingMerchant(merchantId, () => stores.merchants.setMapEntry(merchantId, 'testMode', gateway, on));
}

/**
 * Puts a currency of the merchant on another gateway (of that currency). The rule: a session keeps the gateway it
 * was opened on and a stored card the gateway that stored it, so open sessions finish where they started and stored
 * cards stay chargeable there (their credentials stay loaded); only sessions opened after the change use the new one.
 * Live charges on the new gateway need its credentials (`credentials load`); it has test charges only if
 * GATEWAYS says so (bank_direct).
 *
 * @example
 * await setGateway(stores, 'mer_123', 'VES', 'bank_otp'); // stored cards can now be charged server to server
 */
export async function setGateway(stores: AdminStores, merchantId: string, currency: Currency, gateway: GatewayId): Promise<Merchant> {
  if (GATEWAYS[gateway].currency !== currency) {
    throw new AdminError(`The ${gateway} gateway processes ${GATEWAYS[gateway].currency}, not ${currency}.`);
  }
  return onExistingMerchant(merchantId, () => stores.merchants.setMapEntry(merchantId, 'gateways', currency, gateway));
}

/**
 * Overrides the spec's default limit for one operation class.
 *
 * @example
 * await setRateLimit(stores, 'mer_123', 'sessions', { perMinute: 480, perDay: 40_000 });
 */
export async function setRateLimit(stores: AdminStores, merchantId: string, operationClass: OperationClass, limit: RateLimit): Promise<Merchant> {
  for (const [name, value] of Object.entries(limit)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new AdminError(`${name} must be a whole number of at least 1, not ${value}.`);
  }
  if (limit.perDay < limit.perMinute) throw new AdminError(`perDay (${limit.perDay}) cannot be lower than perMinute (${limit.perMinute}).`);
  return onExistingMerchant(merchantId, () => stores.merchants.setMapEntry(merchantId, 'rateLimits', operationClass, { perMinute: limit.perMinute, perDay: limit.perDay }));
}

/**
 * Runs a field-level write of the merchant (never a read-modify-write of the whole item, which loses a change made
 * at the same time by another admin command); its lost condition means there is no such merchant.
 */
async function onExistingMerchant(merchantId: string, write: () => Promise<Merchant>): Promise<Merchant> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new MerchantNotFoundError(merchantId);
    throw error;
  }
}

/**
 * Sets what buyers see of the merchant on the checkout (business name, logo), until the merchant does it in the
 * dashboard. A field-level update (MerchantStore.updateBranding): nothing else of the merchant is read or rewritten.
 *
 * @example
 * await setBranding(stores, 'mer_123', { businessName: 'Café Ávila', logo: { bytes: readFileSync('logo.png') } });
 * await setBranding(stores, 'mer_123', { logo: null }); // no logo on the checkout any more
 */
export async function setBranding(stores: AdminStores, merchantId: string, input: BrandingInput): Promise<Merchant> {
  try {
    return await stores.merchants.updateBranding(merchantId, input);
  } catch (error) {
    if (error instanceof BrandingError) throw new AdminError(error.message, { cause: error });
    if (error instanceof ConditionFailedError) throw new MerchantNotFoundError(merchantId);
    throw error;
  }
}
