/**
 * The connectors the service speaks, by id, with their protocol code: loaded only by the functions that call
 * networks (shared/gateways/gateway-registry.ts) and by the credentials check. Adding a network is its folder, a
 * line here and a line in profiles.ts (docs/connectors.md); the type checker refuses one without the other.
 */
import type { Connector } from './connector.ts';
import { mercantilConnector } from './mercantil/index.ts';
import type { ConnectorId, GatewayId } from './profiles.ts';
import { stripeConnector } from './stripe/index.ts';
import { svcReferenceConnector } from './svc-reference/index.ts';

export const CONNECTORS = {
  svc_reference: svcReferenceConnector,
  mercantil: mercantilConnector,
  stripe: stripeConnector,
} as const satisfies Record<ConnectorId, Connector<string>>;

/** The connector that offers a gateway. */
export function connectorOf(gateway: GatewayId): Connector<GatewayId> {
  const connector = (Object.values(CONNECTORS) as Connector<string>[]).find((c) => gateway in c.gateways);
  if (!connector) throw new Error(`No connector offers the ${gateway} gateway`);
  return connector as Connector<GatewayId>;
}
