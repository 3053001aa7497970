import { requireEnv } from '../config.ts';
import type { PartsFactory } from '../deps.ts';
import type { GatewayId } from '../domain/merchant.ts';
import { cardBankGateway } from './card-bank-gateway.ts';
import { cardProcessorGateway } from './card-processor-gateway.ts';
import { countedGateway } from './counted-gateway.ts';
import type { ServiceMetrics } from '../observability/metrics.ts';
import type { PaymentGateway } from './payment-gateway.ts';

/** Where each bank's API lives: the real banks in AWS, the sandbox bank locally. */
export interface GatewayConfig {
  baseUrls: Record<GatewayId, string>;
  /** Deadline of one call to a bank; past it a charge is left pending and reconciled later. */
  timeoutMs: number;
}

export const DEFAULT_GATEWAY_TIMEOUT_MS = 8_000;

/** The variable that carries each gateway's base URL (the stack sets them from its configuration). */
export const GATEWAY_URL_VARIABLES = {
  bank_direct: 'GATEWAY_BANK_DIRECT_URL',
  bank_otp: 'GATEWAY_BANK_OTP_URL',
  card_processor: 'GATEWAY_CARD_PROCESSOR_URL',
} as const satisfies Record<GatewayId, string>;

/** Read only by the functions that talk to banks, so the other functions need none of these variables. */
export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    baseUrls: {
      bank_direct: requireEnv(GATEWAY_URL_VARIABLES.bank_direct, env),
      bank_otp: requireEnv(GATEWAY_URL_VARIABLES.bank_otp, env),
      card_processor: requireEnv(GATEWAY_URL_VARIABLES.card_processor, env),
    },
    timeoutMs: env.GATEWAY_TIMEOUT_MS ? Number(env.GATEWAY_TIMEOUT_MS) : DEFAULT_GATEWAY_TIMEOUT_MS,
  };
}

export type GatewayRegistry = (id: GatewayId) => PaymentGateway;

/**
 * One adapter per gateway, built on first use from the configuration (read lazily, see readGatewayConfig).
 *
 * @example
 * const gateways = createGatewayRegistry(() => readGatewayConfig());
 * await gateways('bank_direct').charge(request, { environment: 'test', credentials: null });
 */
export function createGatewayRegistry(config: () => GatewayConfig, metrics?: ServiceMetrics): GatewayRegistry {
  let adapters: Record<GatewayId, PaymentGateway> | undefined;
  return (id) => {
    if (!adapters) {
      const { baseUrls, timeoutMs } = config();
      const counted = (gateway: PaymentGateway) => (metrics ? countedGateway(gateway, metrics) : gateway);
      adapters = {
        bank_direct: counted(cardBankGateway('bank_direct', { baseUrl: baseUrls.bank_direct, timeoutMs, environments: true })),
        bank_otp: counted(cardBankGateway('bank_otp', { baseUrl: baseUrls.bank_otp, timeoutMs, environments: false })),
        card_processor: counted(cardProcessorGateway({ baseUrl: baseUrls.card_processor, timeoutMs })),
      };
    }
    return adapters[id];
  };
}

/** The gateways part of a Lambda function whose manifest entry needs `gateways`: the stack sets its GATEWAY_*_URL. */
export const gatewaysFromEnvironment: PartsFactory = (env, { metrics }) => ({ gateways: createGatewayRegistry(() => readGatewayConfig(env), metrics) });
