import { describe, expect, it } from 'vitest';
import { sandboxGatewayUrls } from '../../infra/sandbox/gateway-urls.ts';
import { GATEWAY_IDS, type GatewayId } from '../../shared/domain/merchant.ts';
import { GATEWAY_URL_VARIABLES, readGatewayConfig } from '../../shared/gateways/gateway-registry.ts';

const simulators = Object.fromEntries(GATEWAY_IDS.map((id) => [id, `http://127.0.0.1:1/${id}`])) as Record<GatewayId, string>;

describe('where the sandbox sends each gateway', () => {
  it('uses the built-in simulators when no GATEWAY_*_URL is set', () => {
    expect(sandboxGatewayUrls(simulators, {}).mercantil).toEqual({ live: simulators.mercantil, test: simulators.mercantil });
  });

  it('sends both modes to GATEWAY_MERCANTIL_URL alone, and test traffic to GATEWAY_MERCANTIL_TEST_URL when set too', () => {
    const one = sandboxGatewayUrls(simulators, { GATEWAY_MERCANTIL_URL: 'https://bank.example/sandbox/v1' });
    expect(one.mercantil).toEqual({ live: 'https://bank.example/sandbox/v1', test: 'https://bank.example/sandbox/v1' });
    expect(one.bank_direct).toEqual({ live: simulators.bank_direct, test: simulators.bank_direct });
    const two = sandboxGatewayUrls(simulators, { GATEWAY_MERCANTIL_URL: 'https://bank.example/prod/v1', GATEWAY_MERCANTIL_TEST_URL: 'https://bank.example/sandbox/v1' });
    expect(two.mercantil).toEqual({ live: 'https://bank.example/prod/v1', test: 'https://bank.example/sandbox/v1' });
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
