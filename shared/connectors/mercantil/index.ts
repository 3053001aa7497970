/**
 * Banco Mercantil (Venezuela), card payments in VES: credit (tdc) paid at once, debit (tdd) with the buyer's second
 * factor; status by search. Sources and every mapping: docs/connectors.md#banco-mercantil.
 */
import type { Connector } from '../connector.ts';
import { MercantilCredentialsSchema } from './credentials.ts';
import { mercantilGateway } from './mercantil-gateway.ts';

/** The bank's own sandbox (its playground code); production's is the path every independent integration uses, probable only. */
export const MERCANTIL_SANDBOX_URL = 'https://apimbu.mercantilbanco.com/mercantil-banco/sandbox/v1';
export const MERCANTIL_PRODUCTION_URL = 'https://apimbu.mercantilbanco.com/mercantil-banco/prod/v1';

/** The bank's sandbox debit card (its screenshots): it fails Luhn, and test mode must still send it to the bank. */
export const MERCANTIL_TEST_DEBIT_CARD = '501878201234567890';

export const mercantilConnector: Connector<'mercantil'> = {
  id: 'mercantil',
  gateways: {
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
    },
  },
  credentials: MercantilCredentialsSchema,
  create: (_gateway, { urls, timeoutMs }) => mercantilGateway({ urls, timeoutMs }),
};
