/**
 * Where the sandbox sends each gateway's traffic: its built-in simulator, unless the gateway's GATEWAY_*_URL is set
 * (then that URL takes both modes' traffic, or the test traffic goes to the second variable where the network has
 * one), so a developer holding a network's sandbox credentials can try the real thing from a laptop.
 */
import type { GatewayUrls } from '../../shared/connectors/connector.ts';
import { GATEWAY_IDS, type GatewayId } from '../../shared/domain/merchant.ts';
import { GATEWAY_URL_VARIABLES, gatewayUrls } from '../../shared/gateways/gateway-registry.ts';

/**
 * @example
 * sandboxGatewayUrls({ ...bank.baseUrls, mercantil: mercantil.baseUrl }, process.env)
 */
export function sandboxGatewayUrls(simulators: Record<GatewayId, string>, env: NodeJS.ProcessEnv): Record<GatewayId, GatewayUrls> {
  return Object.fromEntries(
    GATEWAY_IDS.map((id) => [id, simulated(id, env) ? { live: simulators[id], test: simulators[id] } : gatewayUrls(id, env)]),
  ) as Record<GatewayId, GatewayUrls>;
}

/** The gateways left on their simulator: live mode there moves no money either. */
export const simulatedGateways = (env: NodeJS.ProcessEnv): GatewayId[] => GATEWAY_IDS.filter((id) => simulated(id, env));

const simulated = (id: GatewayId, env: NodeJS.ProcessEnv): boolean => !env[GATEWAY_URL_VARIABLES[id]];
