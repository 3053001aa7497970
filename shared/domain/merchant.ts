/**
 * Merchant configuration and the mode rules that depend on it. Pure: no I/O. The gateways come from the connectors'
 * profiles (shared/connectors/profiles.ts), which import only types from here.
 */
import type { ConnectorCapabilities, GatewayProfile } from '../connectors/connector.ts';
import { CONNECTOR_GATEWAYS, type ConnectorId, type GatewayId } from '../connectors/profiles.ts';
import type { MerchantLogo } from './merchant-branding.ts';
import type { PagoMovilMethod } from './payment-method.ts';
import type { Mode } from './session-state.ts';

/**
 * A gateway as the payment flow sees it: the connector that speaks its network's protocol (shared/connectors/) and
 * what that network can do. storedCardsWithoutCvv: its stored cards are charged server to server (POST
 * /v1/charges), without the buyer, so they cannot be paid in the CVV-only checkout. periodicVerification: the
 * customer verifies the card with the gateway (OTP), which asks again about every three months (gatewayAuth*
 * fields, card.authentication_* events). supportsTestMode: the network has a test environment (test keys charge it).
 */
export interface GatewayEntry extends Omit<ConnectorCapabilities, 'testEnvironment'> {
  connector: ConnectorId;
  currency: Currency;
  supportsTestMode: boolean;
  /** The network's documented test cards that fail Luhn: test mode sends them to the network (connector.ts). */
  testCardsFailingLuhn: readonly string[];
  /** The approval's processor reference is the processor's own id, not for the buyer's receipt (connector.ts). */
  internalReference: boolean;
  /** The pago móvil methods the network takes (connector.ts); empty for card-only networks. */
  pagoMovil: readonly PagoMovilMethod[];
}

/** Every gateway of every registered connector (shared/connectors/profiles.ts), by the id merchants are put on. */
export const GATEWAYS = Object.fromEntries(
  Object.entries(CONNECTOR_GATEWAYS).flatMap(([connector, gateways]) =>
    Object.entries(gateways as Record<string, GatewayProfile>).map(([id, { currency, capabilities, testCardsFailingLuhn, internalReference, pagoMovil }]) => {
      const { testEnvironment, ...rest } = capabilities;
      const entry: GatewayEntry = {
        connector: connector as ConnectorId,
        currency,
        ...rest,
        supportsTestMode: testEnvironment,
        testCardsFailingLuhn: testCardsFailingLuhn ?? [],
        internalReference: internalReference ?? false,
        pagoMovil: pagoMovil ?? [],
      };
      return [id, entry];
    }),
  ),
) as Record<GatewayId, GatewayEntry>;
export type { GatewayId };
export const GATEWAY_IDS = Object.keys(GATEWAYS) as GatewayId[];

export const CURRENCIES = ['VES', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** charge is the checkout's (the spec's table); refunds and server_charges are secret-key money movement, apart from it. */
export const OPERATION_CLASSES = ['charge', 'sessions', 'reads', 'refunds', 'server_charges'] as const;
export type OperationClass = (typeof OPERATION_CLASSES)[number];
export interface RateLimit {
  perMinute: number;
  perDay: number;
}

export interface Merchant {
  id: string;
  name: string;
  createdAt: string;
  /** Not provisioned: the platform team has not finished onboarding; sessions are refused with 409. */
  provisioned: boolean;
  /** Which gateway processes each currency. */
  gateways: Record<Currency, GatewayId>;
  /** Test mode is switched on per gateway, on request. */
  testMode: Partial<Record<GatewayId, boolean>>;
  /** Gateways whose live bank credentials are loaded (the ciphertext lives in a separate item). */
  credentialsLoaded: Partial<Record<GatewayId, boolean>>;
  /** Per-merchant overrides of the spec's default limits. */
  rateLimits: Partial<Record<OperationClass, RateLimit>>;
  /** The public name buyers see on the checkout; unset, they see `name` (merchant-branding.ts). */
  businessName?: string;
  /** The checkout's logo, when one was uploaded; its bytes live in their own item. */
  logo?: MerchantLogo;
  /** Pago móvil, when the merchant takes it (VES only): docs/pago-movil.md. */
  pagoMovil?: PagoMovilSetup;
}

/**
 * Which gateway takes each pago móvil method, and where buyers send P2C payments: the merchant's affiliated phone
 * (national form) and RIF, public details shown in the checkout's instructions.
 */
export interface PagoMovilSetup {
  gateways: Partial<Record<PagoMovilMethod, GatewayId>>;
  payee: { phone: string; rif: string };
}

export const defaultGateways = (): Record<Currency, GatewayId> => ({ VES: 'bank_direct', USD: 'card_processor' });

/** Why a key of this mode may not open a session in this currency, or null when it may. */
export function modeConflict(merchant: Merchant, mode: Mode, currency: Currency): { code: string; message: string } | null {
  return gatewayModeConflict(merchant, mode, merchant.gateways[currency], currency);
}

/** The same rule for a given gateway: at charge time, the gateway the session was opened on. */
export function gatewayModeConflict(merchant: Merchant, mode: Mode, gateway: GatewayId, currency: Currency): { code: string; message: string } | null {
  if (mode === 'live') return null;
  if (!GATEWAYS[gateway].supportsTestMode) {
    return {
      code: 'test_mode_unsupported',
      message: `Test charges are not supported on the ${gateway} gateway that processes ${currency}. Use your live secret key (sk_live_...).`,
    };
  }
  if (!merchant.testMode[gateway]) {
    return {
      code: 'test_mode_off',
      message: 'Test mode is off for this merchant. Use your live secret key (sk_live_...) instead of the test key.',
    };
  }
  return null;
}
