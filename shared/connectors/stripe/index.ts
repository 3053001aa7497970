/**
 * Stripe PaymentIntents, card payments in USD: a pending PaymentIntent per session (manual capture), confirmed with
 * the buyer's card, captured on approval, cancelled when the session closes, refunded in parts. Sources and every
 * mapping: docs/connectors.md#stripe.
 */
import type { Connector } from '../connector.ts';
import { stripeCredentialsSchema } from './credentials.ts';
import { stripeGateway } from './stripe-gateway.ts';

/** Live and test mode share one API; the secret key (sk_live_ or sk_test_) chooses the mode. */
export const STRIPE_API_URL = 'https://api.stripe.com';

/** Stripe's documented incorrect_number test card fails the Luhn check: in test mode Stripe judges it, not our checkout. */
export const STRIPE_INCORRECT_NUMBER_CARD = '4242424242424241';

export const stripeConnector: Connector<'stripe'> = {
  id: 'stripe',
  gateways: {
    stripe: {
      currency: 'USD',
      capabilities: {
        otp: false,
        cardWithOtp: false,
        refunds: true,
        // A capture is settled by Stripe; an uncaptured payment is cancelled, not voided (cancelPayment).
        voids: false,
        pendingPayments: true,
        storedCardsWithoutCvv: false,
        periodicVerification: false,
        testEnvironment: true,
        // Stripe's test mode authenticates with the merchant's own sk_test_ key.
        testNeedsCredentials: true,
      },
      endpoint: { variable: 'GATEWAY_STRIPE_URL', contextKey: 'stripeUrl' },
      testCardsFailingLuhn: [STRIPE_INCORRECT_NUMBER_CARD],
    },
  },
  credentials: stripeCredentialsSchema,
  create: (_gateway, { urls, timeoutMs }) => stripeGateway({ urls, timeoutMs }),
};
