import { describe, expect, it } from 'vitest';
import { sandboxGatewayUrls } from '../../infra/sandbox/gateway-urls.ts';
import { GATEWAY_IDS, type GatewayId } from '../../shared/domain/merchant.ts';
import { GATEWAY_URL_VARIABLES, readGatewayConfig } from '../../shared/gateways/gateway-registry.ts';
import { MERCANTIL_SANDBOX_URL } from '../../shared/connectors/mercantil/profile.ts';

/** The bank's probable production base (docs/connectors.md): a production-looking URL on the sandbox's own host. */
const MERCANTIL_PRODUCTION = 'https://apimbu.mercantilbanco.com/mercantil-banco/prod/v1';

const simulators = Object.fromEntries(GATEWAY_IDS.map((id) => [id, `http://127.0.0.1:1/${id}`])) as Record<GatewayId, string>;

describe('where the sandbox sends each gateway', () => {
  it('uses the built-in simulators when no GATEWAY_*_URL is set', () => {
    expect(sandboxGatewayUrls(simulators, {}).mercantil).toEqual({ live: simulators.mercantil, test: simulators.mercantil });
  });

  it('sends both modes to GATEWAY_MERCANTIL_URL alone, and test traffic to GATEWAY_MERCANTIL_TEST_URL when set too', () => {
    const one = sandboxGatewayUrls(simulators, { GATEWAY_MERCANTIL_URL: MERCANTIL_SANDBOX_URL });
    expect(one.mercantil).toEqual({ live: MERCANTIL_SANDBOX_URL, test: MERCANTIL_SANDBOX_URL });
    expect(one.bank_direct).toEqual({ live: simulators.bank_direct, test: simulators.bank_direct });
    const two = sandboxGatewayUrls(simulators, { GATEWAY_MERCANTIL_URL: MERCANTIL_PRODUCTION, GATEWAY_MERCANTIL_TEST_URL: `${MERCANTIL_SANDBOX_URL}/` });
    expect(two.mercantil).toEqual({ live: MERCANTIL_PRODUCTION, test: `${MERCANTIL_SANDBOX_URL}/` });
    const local = sandboxGatewayUrls(simulators, { GATEWAY_STRIPE_URL: 'http://localhost:4100', GATEWAY_BANK_DIRECT_URL: 'https://[::1]:4443/bank' });
    expect(local.stripe.test).toBe('http://localhost:4100');
    expect(sandboxGatewayUrls(simulators, { GATEWAY_STRIPE_URL: 'https://api.stripe.com' }).stripe.test).toBe('https://api.stripe.com');
  });

  it('refuses to start when a URL would carry test traffic to a host that is neither this machine nor the network\'s published test environment', () => {
    const refused = (env: NodeJS.ProcessEnv) => () => sandboxGatewayUrls(simulators, env);
    // Production alone takes the test traffic too: the message says how to keep it apart.
    expect(refused({ GATEWAY_MERCANTIL_URL: MERCANTIL_PRODUCTION })).toThrow(
      `GATEWAY_MERCANTIL_URL=${MERCANTIL_PRODUCTION} would carry the sandbox's test traffic to a host that is neither this machine nor mercantil's published test environment (${MERCANTIL_SANDBOX_URL}). To try production from here, set GATEWAY_MERCANTIL_TEST_URL to the test environment as well.`,
    );
    expect(refused({ GATEWAY_MERCANTIL_URL: MERCANTIL_PRODUCTION, GATEWAY_MERCANTIL_TEST_URL: MERCANTIL_PRODUCTION })).toThrow('GATEWAY_MERCANTIL_TEST_URL=');
    // The same host under another path is not the test environment.
    expect(refused({ GATEWAY_MERCANTIL_URL: 'https://apimbu.mercantilbanco.com/mercantil-banco/sandbox/v1evil' })).toThrow('would carry');
    expect(refused({ GATEWAY_STRIPE_URL: 'https://stripe.proxy.example' })).toThrow('GATEWAY_STRIPE_URL=https://stripe.proxy.example would carry');
    expect(refused({ GATEWAY_BANK_DIRECT_URL: 'https://bank.example/v1' })).toThrow("neither this machine nor bank_direct's published test environment.");
    expect(refused({ GATEWAY_BANK_OTP_URL: 'http://10.0.0.8:8080' })).toThrow('GATEWAY_BANK_OTP_URL=http://10.0.0.8:8080 must be an https:// URL, or http:// on this machine.');
  });

  it('reads every gateway variable in a Lambda function, failing loudly when one is missing', () => {
    const env = Object.fromEntries(GATEWAY_IDS.map((id) => [GATEWAY_URL_VARIABLES[id], `https://${id}.example`]));
    expect(readGatewayConfig(env).urls.mercantil).toEqual({ live: 'https://mercantil.example', test: 'https://mercantil.example' });
    const { GATEWAY_MERCANTIL_URL: _, ...without } = env;
    expect(() => readGatewayConfig(without)).toThrow('GATEWAY_MERCANTIL_URL');
  });

  it('refuses a gateway URL that is not https in a Lambda function, whether it came from context or from SSM at deploy', () => {
    const env = Object.fromEntries(GATEWAY_IDS.map((id) => [GATEWAY_URL_VARIABLES[id], `https://${id}.example`]));
    expect(() => readGatewayConfig({ ...env, GATEWAY_STRIPE_URL: 'http://api.stripe.example' })).toThrow('GATEWAY_STRIPE_URL must be an https:// URL');
    expect(() => readGatewayConfig({ ...env, GATEWAY_MERCANTIL_TEST_URL: 'http://bank.example/sandbox/v1' })).toThrow('GATEWAY_MERCANTIL_TEST_URL must be an https:// URL');
    expect(() => readGatewayConfig({ ...env, GATEWAY_BANK_DIRECT_URL: 'not a url' })).toThrow('GATEWAY_BANK_DIRECT_URL must be an https:// URL');
  });

  it('takes plain http only to this machine and only where ALLOW_LOOPBACK_GATEWAYS says so (the AWS harness)', () => {
    const env = Object.fromEntries(GATEWAY_IDS.map((id) => [GATEWAY_URL_VARIABLES[id], `https://${id}.example`]));
    const local = { ...env, GATEWAY_STRIPE_URL: 'http://127.0.0.1:4100' };
    expect(() => readGatewayConfig(local)).toThrow('GATEWAY_STRIPE_URL must be an https:// URL');
    expect(readGatewayConfig({ ...local, ALLOW_LOOPBACK_GATEWAYS: 'true' }).urls.stripe.live).toBe('http://127.0.0.1:4100');
    for (const elsewhere of ['http://127.example.com', 'http://10.0.0.8', 'http://[::ffff:7f00:1]', 'http://bank.example']) {
      expect(() => readGatewayConfig({ ...env, GATEWAY_STRIPE_URL: elsewhere, ALLOW_LOOPBACK_GATEWAYS: 'true' }), elsewhere).toThrow('GATEWAY_STRIPE_URL must be an https:// URL');
    }
  });
});
