/**
 * The connectors the service speaks, by id: adding a network is its folder and one line here (docs/connectors.md).
 * The gateway ids merchants choose per currency are the union of the gateways the connectors offer; the domain's
 * gateway table (shared/domain/merchant.ts GATEWAYS) and the gateway registry (shared/gateways/gateway-registry.ts)
 * both derive from this list.
 */
import type { Connector } from './connector.ts';
import { mercantilConnector } from './mercantil/index.ts';
import { stripeConnector } from './stripe/index.ts';
import { svcReferenceConnector } from './svc-reference/index.ts';

export const CONNECTORS = {
  svc_reference: svcReferenceConnector,
  mercantil: mercantilConnector,
  stripe: stripeConnector,
} as const satisfies Record<string, Connector<string>>;

export type ConnectorId = keyof typeof CONNECTORS;

/** Every gateway id a merchant can be put on: the ones the connectors declare. */
export type GatewayId = { [C in ConnectorId]: keyof (typeof CONNECTORS)[C]['gateways'] & string }[ConnectorId];

/** The connector that offers a gateway. */
export function connectorOf(gateway: GatewayId): Connector<GatewayId> {
  const connector = (Object.values(CONNECTORS) as Connector<string>[]).find((c) => gateway in c.gateways);
  if (!connector) throw new Error(`No connector offers the ${gateway} gateway`);
  return connector as Connector<GatewayId>;
}
