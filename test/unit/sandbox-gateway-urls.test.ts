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
});
