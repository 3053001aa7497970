/**
 * Stripe's gateway as the domain knows it (currency, capabilities, endpoint, test cards): data only, so every
 * function bundle carries it without the connector's protocol code (index.ts).
 */
import type { GatewayProfile } from '../connector.ts';

/** Live and test mode share one API; the secret key (sk_live_ or sk_test_) chooses the mode. */
export const STRIPE_API_URL = 'https://api.stripe.com';

/** Stripe's documented incorrect_number test card fails the Luhn check: in test mode Stripe judges it, not our checkout. */
export const STRIPE_INCORRECT_NUMBER_CARD = '4242424242424241';

export const stripeGateways = {
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
    endpoint: { variable: 'GATEWAY_STRIPE_URL', contextKey: 'stripeUrl', published: STRIPE_API_URL },
    testCardsFailingLuhn: [STRIPE_INCORRECT_NUMBER_CARD],
    // The PaymentIntent's id: the buyer's receipt shows the charge's authorization_code instead.
    internalReference: true,
  },
} satisfies Record<'stripe', GatewayProfile>;
