/**
 * What a connector is: the code that speaks one payment network's own protocol behind the PaymentGateway port. Each
 * lives in its own folder (shared/connectors/<name>/) with its wire types, request builders, the mapping of its
 * answers to the port's outcomes, its credentials schema and the capabilities it declares; the registry
 * (registry.ts) lists them. The payment flow never sees a connector, only the port.
 *
 * Imports from here are types only, and connectors import only types from shared/domain/merchant.ts: the domain
 * derives its gateway table from the registry, so a value import back into it would be a cycle.
 */
import type * as z from 'zod';
import type { Currency } from '../domain/merchant.ts';
import type { PagoMovilMethod } from '../domain/payment-method.ts';
import type { PaymentGateway } from '../gateways/payment-gateway.ts';

/** What a network can do, declared by its connector; the payment flow branches on these, never on a gateway's name. */
export interface ConnectorCapabilities {
  /** The buyer confirms the charge with a second factor (session otp_requested -> otp_confirmed). */
  otp: boolean;
  /**
   * The network takes the whole charge again with the buyer's code (card, CVV and code in one call), so the OTP
   * request carries the CVV again and the card number is sealed for it while the code is awaited (OtpConfirmation).
   */
  cardWithOtp: boolean;
  /** Refunds an approved charge (partial amounts too); without it a refund answers 409 refund_unsupported. */
  refunds: boolean;
  /** Cancels a charge of the same day whole (voidCharge), before it settles. */
  voids: boolean;
  /** Payments are created pending with the checkout and can be cancelled until charged (openPayment/cancelPayment). */
  pendingPayments: boolean;
  /** Stored cards are charged server to server without the buyer and without CVV (POST /v1/charges). */
  storedCardsWithoutCvv: boolean;
  /** The buyer re-verifies a stored card with the network about every three months (gatewayAuth* fields). */
  periodicVerification: boolean;
  /** The network has a test environment that test-mode sessions are sent to. */
  testEnvironment: boolean;
  /** Test-mode charges need the merchant's loaded credentials too (the network's test environment authenticates). */
  testNeedsCredentials: boolean;
}

/** Where the stack and the sandbox find a gateway's base URL: a variable, and the CDK context key that sets it. */
export interface EndpointVariable {
  variable: string;
  contextKey: string;
  /** The network's own published base URL, where it has one (the sandbox lets test traffic go there, nowhere else). */
  published?: string;
}

/** One gateway a connector offers: the currency it processes, what it can do, where its API lives. */
export interface GatewayProfile {
  currency: Currency;
  capabilities: ConnectorCapabilities;
  /** Base URL of the live API (and of the test API too, unless `testEndpoint` says otherwise). */
  endpoint: EndpointVariable;
  /**
   * Where the network's test environment lives at another address than its live API: a second variable, and the
   * network's published test base URL used when neither the variable nor the context sets one.
   */
  testEndpoint?: Required<EndpointVariable>;
  /**
   * The network's own documented test card numbers that fail the Luhn check: in test mode they reach the network,
   * which judges them, instead of being refused by ours.
   */
  testCardsFailingLuhn?: readonly string[];
  /**
   * The processor reference of an approval is the processor's own object id (Stripe's pi_...), which the buyer's
   * bank does not know: the merchant reads it, the buyer's receipt leaves it out.
   */
  internalReference?: boolean;
  /** The pago móvil methods the network takes (in its currency, VES); its gateway then has the pagoMovil sub-port. */
  pagoMovil?: readonly PagoMovilMethod[];
}

/** Base URLs per environment; equal when the network has one address for both. */
export interface GatewayUrls {
  live: string;
  test: string;
}

export interface ConnectorOptions {
  urls: GatewayUrls;
  /** Deadline of one call to the network; past it a charge is left pending and reconciled by a status read. */
  timeoutMs: number;
}

/**
 * A connector as the registry holds it.
 *
 * The gateway ids are written in the annotation too (`Connector<'mercantil'>`): the registry derives GatewayId from
 * them, and an annotated type is what lets it do so without inferring through the adapter the connector creates.
 *
 * @example
 * export const mercantilConnector: Connector<'mercantil'> = {
 *   id: 'mercantil',
 *   gateways: { mercantil: { currency: 'VES', capabilities, endpoint: { variable: 'GATEWAY_MERCANTIL_URL', contextKey: 'mercantilUrl' } } },
 *   credentials: MercantilCredentialsSchema,
 *   create: (gateway, options) => mercantilGateway(options),
 * };
 */
export interface Connector<G extends string = string> {
  id: string;
  /** The gateway ids it offers (what merchants, sessions and transactions record), each with its profile. */
  gateways: Record<G, GatewayProfile>;
  /**
   * The credentials a merchant loads for it (admin CLI, dashboard), validated when loaded: the first issue names
   * the missing or invalid field. Stored sealed as the JSON text given; the connector parses it again on use.
   */
  credentials: z.ZodType;
  create(gateway: G, options: ConnectorOptions): PaymentGateway;
}
