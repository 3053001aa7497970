/**
 * What the domain knows of each connector, by connector id: its gateways' profiles (currency, capabilities,
 * endpoints), data only. The domain's gateway table (shared/domain/merchant.ts GATEWAYS) and GatewayId derive from
 * this list, so every function bundle carries the networks' profiles but not their protocol code, which only the
 * functions that call networks load (registry.ts). A connector is registered by a line here and one in registry.ts,
 * which the type checker keeps in step.
 */
import type { GatewayProfile } from './connector.ts';
import { mercantilGateways } from './mercantil/profile.ts';
import { stripeGateways } from './stripe/profile.ts';
import { svcReferenceGateways } from './svc-reference/profile.ts';

export const CONNECTOR_GATEWAYS = {
  svc_reference: svcReferenceGateways,
  mercantil: mercantilGateways,
  stripe: stripeGateways,
} as const satisfies Record<string, Record<string, GatewayProfile>>;

export type ConnectorId = keyof typeof CONNECTOR_GATEWAYS;

/** Every gateway id a merchant can be put on: the ones the connectors declare. */
export type GatewayId = { [C in ConnectorId]: keyof (typeof CONNECTOR_GATEWAYS)[C] & string }[ConnectorId];
