import { requireEnv } from '../config.ts';
import type { GatewayId } from '../domain/merchant.ts';
import { cardBankGateway } from './card-bank-gateway.ts';
import { cardProcessorGateway } from './card-processor-gateway.ts';
import type { PaymentGateway } from './payment-gateway.ts';

/** Where each bank's API lives: the real banks in AWS, the sandbox bank locally. */
export interface GatewayConfig {
  baseUrls: Record<GatewayId, string>;
  /** Deadline of one call to a bank; past it a charge is left pending and reconciled later. */
  timeoutMs: number;
}

export const DEFAULT_GATEWAY_TIMEOUT_MS = 8_000;

/** Read only by the functions that talk to banks, so the other functions need none of these variables. */
export function readGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return {
    baseUrls: {
      bank_direct: requireEnv('GATEWAY_BANK_DIRECT_URL', env),
      bank_otp: requireEnv('GATEWAY_BANK_OTP_URL', env),
      card_processor: requireEnv('GATEWAY_CARD_PROCESSOR_URL', env),
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
export function createGatewayRegistry(config: () => GatewayConfig): GatewayRegistry {
  let adapters: Record<GatewayId, PaymentGateway> | undefined;
  return (id) => {
    if (!adapters) {
      const { baseUrls, timeoutMs } = config();
      adapters = {
        bank_direct: cardBankGateway('bank_direct', { baseUrl: baseUrls.bank_direct, timeoutMs, environments: true }),
        bank_otp: cardBankGateway('bank_otp', { baseUrl: baseUrls.bank_otp, timeoutMs, environments: false }),
        card_processor: cardProcessorGateway({ baseUrl: baseUrls.card_processor, timeoutMs }),
      };
    }
    return adapters[id];
  };
}
