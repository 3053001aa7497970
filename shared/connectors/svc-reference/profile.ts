/**
 * The reference protocol's gateways as the domain knows them (currency, capabilities, endpoints): data only, so
 * every function bundle carries them without the protocol's code (index.ts).
 */
import type { ConnectorCapabilities, GatewayProfile } from '../connector.ts';

const NONE: ConnectorCapabilities = {
  otp: false,
  cardWithOtp: false,
  refunds: true,
  voids: false,
  pendingPayments: false,
  storedCardsWithoutCvv: false,
  periodicVerification: false,
  testEnvironment: false,
  testNeedsCredentials: false,
};

export const svcReferenceGateways = {
  /** Direct-API bank in VES (test and live environments under one base URL); any card may be asked an OTP. */
  bank_direct: {
    currency: 'VES',
    capabilities: { ...NONE, otp: true, testEnvironment: true },
    endpoint: { variable: 'GATEWAY_BANK_DIRECT_URL', contextKey: 'bankDirectUrl' },
  },
  /** VES bank that confirms each charge with an OTP; a verified card is then charged without the customer. */
  bank_otp: {
    currency: 'VES',
    capabilities: { ...NONE, otp: true, storedCardsWithoutCvv: true, periodicVerification: true },
    endpoint: { variable: 'GATEWAY_BANK_OTP_URL', contextKey: 'bankOtpUrl' },
  },
  /** USD processor: payments created pending with the checkout, cancellable until charged; same-day voids. */
  card_processor: {
    currency: 'USD',
    capabilities: { ...NONE, otp: true, voids: true, pendingPayments: true },
    endpoint: { variable: 'GATEWAY_CARD_PROCESSOR_URL', contextKey: 'cardProcessorUrl' },
  },
} satisfies Record<'bank_direct' | 'bank_otp' | 'card_processor', GatewayProfile>;
