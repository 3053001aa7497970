/**
 * Stripe PaymentIntents, card payments in USD: a pending PaymentIntent per session (manual capture), confirmed with
 * the buyer's card, captured on approval, cancelled when the session closes, refunded in parts. Sources and every
 * mapping: docs/connectors.md#stripe.
 */
import type { Connector } from '../connector.ts';
import { stripeCredentialsSchema } from './credentials.ts';
import { stripeGateways } from './profile.ts';
import { stripeGateway } from './stripe-gateway.ts';

export const stripeConnector: Connector<'stripe'> = {
  id: 'stripe',
  gateways: stripeGateways,
  credentials: stripeCredentialsSchema,
  create: (_gateway, { urls, timeoutMs }) => stripeGateway({ urls, timeoutMs }),
};
