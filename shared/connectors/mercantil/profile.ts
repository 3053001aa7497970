/**
 * What the domain knows of Banco Mercantil's gateway (currency, capabilities, endpoints, test cards): data only, so
 * every function bundle carries it without the connector's protocol code (index.ts).
 */
import type { GatewayProfile } from '../connector.ts';

/**
 * The bank's own sandbox (its playground code). Production has no default: its probable base,
 * https://apimbu.mercantilbanco.com/mercantil-banco/prod/v1 (every independent integration's), is set by the stage.
 */
export const MERCANTIL_SANDBOX_URL = 'https://apimbu.mercantilbanco.com/mercantil-banco/sandbox/v1';

/** The bank's sandbox debit card (its screenshots): it fails Luhn, and test mode must still send it to the bank. */
export const MERCANTIL_TEST_DEBIT_CARD = '501878201234567890';

export const mercantilGateways = {
  mercantil: {
    currency: 'VES',
    capabilities: {
      otp: true,
      cardWithOtp: true,
      refunds: false,
      voids: false,
      pendingPayments: false,
      storedCardsWithoutCvv: false,
      periodicVerification: false,
      testEnvironment: true,
      testNeedsCredentials: true,
    },
    endpoint: { variable: 'GATEWAY_MERCANTIL_URL', contextKey: 'mercantilUrl' },
    testEndpoint: { variable: 'GATEWAY_MERCANTIL_TEST_URL', contextKey: 'mercantilTestUrl', published: MERCANTIL_SANDBOX_URL },
    testCardsFailingLuhn: [MERCANTIL_TEST_DEBIT_CARD],
    // C2P (payment/c2p) and P2C verified by mobile-payment/search.
    pagoMovil: ['pago_movil_c2p', 'pago_movil_p2c'],
  },
} satisfies Record<'mercantil', GatewayProfile>;
