/**
 * What the domain knows of Banco de Venezuela's gateway (currency, capabilities, endpoints): data only, so every
 * function bundle carries it without the connector's protocol code. Not registered yet (issue 34 reshapes the port
 * for payment methods; the registry lines come with it).
 */
import type { GatewayProfile } from '../connector.ts';

/** The bank's QA host (reference §3). Production, https://bdvconciliacion.banvenez.com:443, is set by the stage. */
export const BDV_QA_URL = 'https://bdvconciliacionqa.banvenez.com:444';

export const bdvGateways = {
  bdv: {
    currency: 'VES',
    capabilities: {
      // The payment key of C2P is the pago móvil method's own step, not the card OTP flow.
      otp: false,
      cardWithOtp: false,
      // No published refund: the annulment reverses a debit whole (its body has no amount); see voids.
      refunds: false,
      voids: true,
      pendingPayments: false,
      storedCardsWithoutCvv: false,
      periodicVerification: false,
      testEnvironment: true,
      // The QA host authenticates with the merchant's QA keys (the test slot of its credentials).
      testNeedsCredentials: true,
    },
    endpoint: { variable: 'GATEWAY_BDV_URL', contextKey: 'bdvUrl' },
    testEndpoint: { variable: 'GATEWAY_BDV_TEST_URL', contextKey: 'bdvTestUrl', published: BDV_QA_URL },
  },
} satisfies Record<'bdv', GatewayProfile>;
