import type { ServiceMetrics } from '../observability/metrics.ts';
import { GatewayUnavailableError, type GatewayOutcome, type PaymentGateway } from './payment-gateway.ts';

/**
 * The gateway with every charge the bank decides (a charge, or the authorisation after an OTP) counted by outcome,
 * `unavailable` when the bank gave no answer at all. Counted here, at the one door to the banks, so the checkout,
 * OTP and server-to-server charges are all counted the same way.
 *
 * @example
 * const gateway = countedGateway(connectorOf('bank_direct').create('bank_direct', options), deps.metrics);
 */
export function countedGateway(gateway: PaymentGateway, metrics: ServiceMetrics): PaymentGateway {
  const counted = async (call: () => Promise<GatewayOutcome>): Promise<GatewayOutcome> => {
    try {
      const outcome = await call();
      metrics.charge(outcome.kind, gateway.id);
      return outcome;
    } catch (error) {
      if (error instanceof GatewayUnavailableError) metrics.charge('unavailable', gateway.id);
      throw error;
    }
  };
  return {
    ...gateway,
    charge: (request, account) => counted(() => gateway.charge(request, account)),
    authorize: (reference, account, confirmation) => counted(() => gateway.authorize(reference, account, confirmation)),
  };
}
