import { requireEnv } from '../config.ts';
import type { GatewayUrls } from '../connectors/connector.ts';
import { connectorOf } from '../connectors/registry.ts';
import type { PartsFactory } from '../deps.ts';
import { GATEWAY_IDS, type GatewayId } from '../domain/merchant.ts';
import type { ServiceMetrics } from '../observability/metrics.ts';
import { countedGateway } from './counted-gateway.ts';
import type { PaymentGateway } from './payment-gateway.ts';

/** Where each gateway's API lives, per environment: the real networks in AWS, the simulators locally. */
export interface GatewayConfig {
  urls: Record<GatewayId, GatewayUrls>;
  /** Deadline of one call to a network; past it a charge is left pending and reconciled later. */
  timeoutMs: number;
}

export const DEFAULT_GATEWAY_TIMEOUT_MS = 8_000;

/** Each gateway's profile as its connector declares it (currency, capabilities, endpoint variables). */
export const gatewayProfile = (id: GatewayId) => connectorOf(id).gateways[id];

/** The variable that carries each gateway's base URL (the stack sets them from its configuration). */
export const GATEWAY_URL_VARIABLES = Object.fromEntries(GATEWAY_IDS.map((id) => [id, gatewayProfile(id).endpoint.variable])) as Record<GatewayId, string>;

/**
 * A gateway's URLs from the environment: the live one from its variable; the test one from its second variable where
 * the network's test environment lives elsewhere, else the same URL (so in the sandbox one variable moves both).
 */
export function gatewayUrls(id: GatewayId, env: NodeJS.ProcessEnv): GatewayUrls {
  const live = requireEnv(GATEWAY_URL_VARIABLES[id], env);
  const test = gatewayProfile(id).testEndpoint;
  return { live, test: (test && env[test.variable]) || live };
}

/**
 * The variable that lets a function reach networks over plain http on its own machine: only the AWS harness sets it
 * (its simulators listen on 127.0.0.1); the stack never does (test/infra/production-readiness.synth.test.ts).
 */
export const LOOPBACK_GATEWAYS_VARIABLE = 'ALLOW_LOOPBACK_GATEWAYS';

/**
 * A URL naming this machine literally: localhost, 127.0.0.0/8 or [::1]. The URL parser writes every IPv4 host as
 * a dotted quad, so a name such as 127.example.com never matches.
 */
export const isLoopbackUrl = (url: URL): boolean => url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);

/**
 * A gateway's URLs in a Lambda function, each https: the stack checks context URLs at synth, but a URL from SSM is
 * resolved only at deploy, so the function checks them all here, at run time. The sandbox reads its own
 * (infra/sandbox/gateway-urls.ts).
 */
function httpsGatewayUrls(id: GatewayId, env: NodeJS.ProcessEnv): GatewayUrls {
  const urls = gatewayUrls(id, env);
  const testVariable = gatewayProfile(id).testEndpoint?.variable;
  const checked: [string, string][] = [
    [GATEWAY_URL_VARIABLES[id], urls.live],
    [testVariable && env[testVariable] ? testVariable : GATEWAY_URL_VARIABLES[id], urls.test],
  ];
  for (const [variable, value] of checked) {
    const url = URL.parse(value);
    const local = url?.protocol === 'http:' && env[LOOPBACK_GATEWAYS_VARIABLE] === 'true' && isLoopbackUrl(url);
    if (url?.protocol !== 'https:' && !local) throw new Error(`${variable} must be an https:// URL; got "${value}".`);
  }
  return urls;
}

/** Read only by the functions that talk to networks, so the other functions need none of these variables. */
export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    urls: Object.fromEntries(GATEWAY_IDS.map((id) => [id, httpsGatewayUrls(id, env)])) as Record<GatewayId, GatewayUrls>,
    timeoutMs: env.GATEWAY_TIMEOUT_MS ? Number(env.GATEWAY_TIMEOUT_MS) : DEFAULT_GATEWAY_TIMEOUT_MS,
  };
}

export type GatewayRegistry = (id: GatewayId) => PaymentGateway;

/**
 * One adapter per gateway, built by its connector on first use from the configuration (read lazily, see
 * readGatewayConfig).
 *
 * @example
 * const gateways = createGatewayRegistry(() => readGatewayConfig());
 * await gateways('bank_direct').charge(request, { environment: 'test', credentials: null });
 */
export function createGatewayRegistry(config: () => GatewayConfig, metrics?: ServiceMetrics): GatewayRegistry {
  const adapters = new Map<GatewayId, PaymentGateway>();
  return (id) => {
    let adapter = adapters.get(id);
    if (!adapter) {
      const { urls, timeoutMs } = config();
      const created = connectorOf(id).create(id, { urls: urls[id], timeoutMs });
      adapter = metrics ? countedGateway(created, metrics) : created;
      adapters.set(id, adapter);
    }
    return adapter;
  };
}

/** The gateways part of a Lambda function whose manifest entry needs `gateways`: the stack sets its GATEWAY_*_URL. */
export const gatewaysFromEnvironment: PartsFactory<'gateways'> = (env, { metrics }) => ({ gateways: createGatewayRegistry(() => readGatewayConfig(env), metrics) });
