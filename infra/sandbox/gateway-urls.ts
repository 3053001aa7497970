/**
 * Where the sandbox sends each gateway's traffic: its built-in simulator, unless the gateway's GATEWAY_*_URL is set
 * (then that URL takes both modes' traffic, or the test traffic goes to the second variable where the network has
 * one), so a developer holding a network's sandbox credentials can try the real thing from a laptop. A URL that
 * would carry test traffic anywhere but this machine or the network's published test environment stops the sandbox
 * from starting (checkSandboxGatewayUrls).
 */
import type { GatewayUrls } from '../../shared/connectors/connector.ts';
import { GATEWAY_IDS, type GatewayId } from '../../shared/domain/merchant.ts';
import { GATEWAY_URL_VARIABLES, gatewayProfile, gatewayUrls, isLoopbackUrl } from '../../shared/gateways/gateway-registry.ts';

/** Whether `value` is the base URL `base` or a path under it (same scheme, host and port). */
function isUnder(value: URL, base: string): boolean {
  const root = new URL(base);
  const path = (url: URL) => `${url.pathname.replace(/\/+$/, '')}/`;
  return value.origin === root.origin && path(value).startsWith(path(root));
}

/**
 * Why the gateway variables in `env` would send traffic where the sandbox must not: test traffic (sessions made with
 * test keys, the merchant's test credentials) only to this machine or to the network's published test environment
 * over https; any traffic over plain http only to this machine. Empty when every URL is fine.
 */
function sandboxGatewayUrlIssues(env: NodeJS.ProcessEnv): string[] {
  return GATEWAY_IDS.flatMap((id) => {
    if (!env[GATEWAY_URL_VARIABLES[id]]) return [];
    const profile = gatewayProfile(id);
    const urls = gatewayUrls(id, env);
    const testVariable = profile.testEndpoint && env[profile.testEndpoint.variable] ? profile.testEndpoint.variable : GATEWAY_URL_VARIABLES[id];
    const published = profile.testEndpoint?.published ?? profile.endpoint.published;
    const issues: string[] = [];
    for (const [variable, value] of new Map([[GATEWAY_URL_VARIABLES[id], urls.live], [testVariable, urls.test]])) {
      const url = URL.parse(value);
      if (!url || (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url)))) issues.push(`${variable}=${value} must be an https:// URL, or http:// on this machine.`);
    }
    const test = URL.parse(urls.test);
    if (test && test.protocol === 'https:' && !isLoopbackUrl(test) && !(published && isUnder(test, published))) {
      issues.push(
        `${testVariable}=${urls.test} would carry the sandbox's test traffic to a host that is neither this machine nor ${id}'s published test environment${published ? ` (${published})` : ''}.` +
          (profile.testEndpoint && testVariable !== profile.testEndpoint.variable ? ` To try production from here, set ${profile.testEndpoint.variable} to the test environment as well.` : ''),
      );
    }
    return issues;
  });
}

/**
 * Throws, naming each variable and what is wrong with it, when the sandbox must not start with these variables.
 *
 * @example
 * checkSandboxGatewayUrls({ GATEWAY_MERCANTIL_URL: 'https://apimbu.mercantilbanco.com/mercantil-banco/prod/v1' }) // throws
 */
export function checkSandboxGatewayUrls(env: NodeJS.ProcessEnv): void {
  const issues = sandboxGatewayUrlIssues(env);
  if (issues.length > 0) throw new Error(`The sandbox does not start:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
}

/**
 * @example
 * sandboxGatewayUrls({ ...bank.baseUrls, mercantil: mercantil.baseUrl }, process.env)
 */
export function sandboxGatewayUrls(simulators: Record<GatewayId, string>, env: NodeJS.ProcessEnv): Record<GatewayId, GatewayUrls> {
  checkSandboxGatewayUrls(env);
  return Object.fromEntries(
    GATEWAY_IDS.map((id) => [id, simulated(id, env) ? { live: simulators[id], test: simulators[id] } : gatewayUrls(id, env)]),
  ) as Record<GatewayId, GatewayUrls>;
}

/** The gateways left on their simulator: live mode there moves no money either. */
export const simulatedGateways = (env: NodeJS.ProcessEnv): GatewayId[] => GATEWAY_IDS.filter((id) => simulated(id, env));

const simulated = (id: GatewayId, env: NodeJS.ProcessEnv): boolean => !env[GATEWAY_URL_VARIABLES[id]];
