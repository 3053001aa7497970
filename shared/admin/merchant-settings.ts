/**
 * Platform-team changes to a merchant's configuration. The API caches a merchant for the key cache TTL (30 s by
 * default), so a change reaches running functions within that time.
 */
import { GATEWAYS, OPERATION_CLASSES, type Currency, type GatewayId, type Merchant, type OperationClass, type RateLimit } from '../domain/merchant.ts';
import { nationalPhone, validRif } from '../domain/pago-movil.ts';
import type { PagoMovilMethod } from '../domain/payment-method.ts';
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
 * Puts a pago móvil method of the merchant on a network that offers it (its profile's pagoMovil), in VES, with the
 * merchant's affiliated phone and RIF (public details: the P2C instructions show them, and the phone is the origin
 * of every C2P operation). The phone and the RIF are the merchant's, so they are the same for both methods; giving
 * them again replaces them. The network's credentials are the ones loaded for its cards.
 *
 * @example
 * await setPagoMovil(stores, 'mer_123', 'pago_movil_c2p', 'mercantil', { phone: '0424-111.22.33', rif: 'J-07013380-5' });
 */
export async function setPagoMovil(stores: AdminStores, merchantId: string, method: PagoMovilMethod, gateway: GatewayId, payee: { phone: string; rif: string }): Promise<Merchant> {
  if (!GATEWAYS[gateway].pagoMovil.includes(method)) {
    const offering = Object.entries(GATEWAYS).filter(([, g]) => g.pagoMovil.includes(method)).map(([id]) => id);
    throw new AdminError(`The ${gateway} gateway does not offer ${method}. ${offering.length ? `It is offered by: ${offering.join(', ')}.` : 'No gateway offers it yet.'}`);
  }
  if (GATEWAYS[gateway].currency !== 'VES') throw new AdminError(`Pago móvil is VES only; the ${gateway} gateway processes ${GATEWAYS[gateway].currency}.`);
  const phone = nationalPhone(payee.phone);
  if (!phone) throw new AdminError(`The phone "${payee.phone}" is not a Venezuelan mobile phone (0412, 0414, 0416, 0424 or 0426 and 7 digits).`);
  const rif = validRif(payee.rif);
  if (!rif) throw new AdminError(`The RIF "${payee.rif}" is not valid: a letter (V, E, J, P, G), 8 digits and its check digit, as J-07013380-5.`);
  const merchant = await requireMerchant(stores.merchants, merchantId);
  // The whole setup in one write, so no reader sees a method without the payee; two admins setting pago móvil for
  // one merchant at the same instant is the one race this leaves, and the later write wins whole.
  const gateways = { ...merchant.pagoMovil?.gateways, [method]: gateway };
  return onExistingMerchant(merchantId, () => stores.merchants.update(merchantId, { pagoMovil: { gateways, payee: { phone, rif } } }));
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
