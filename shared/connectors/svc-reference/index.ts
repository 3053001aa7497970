/**
 * svc_reference: the connector that speaks this project's own reference protocol (card-charges.ts), served by the
 * sandbox bank (infra/sandbox/bank/). It keeps the three gateway ids merchants, sessions and stored cards already
 * record, so existing integrations and their test cards work unchanged. It is also the only connector that carries
 * the spec's stored-card re-verification (bank_otp): no public bank documents one.
 */
import * as z from 'zod';
import type { Connector, ConnectorCapabilities } from '../connector.ts';
import { cardBankGateway } from './card-bank-gateway.ts';
import { cardProcessorGateway } from './card-processor-gateway.ts';

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

/** The reference banks take the credentials object as issued: any non-empty JSON object. */
const ReferenceCredentialsSchema = z.record(z.string(), z.unknown()).refine((value) => Object.keys(value).length > 0, { error: 'must be a non-empty JSON object' });

export const svcReferenceConnector: Connector<'bank_direct' | 'bank_otp' | 'card_processor'> = {
  id: 'svc_reference',
  gateways: {
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
  },
  credentials: ReferenceCredentialsSchema,
  create: (gateway, { urls, timeoutMs }) =>
    gateway === 'card_processor'
      ? cardProcessorGateway({ baseUrl: urls.live, timeoutMs })
      : cardBankGateway(gateway, { baseUrl: urls.live, timeoutMs, environments: gateway === 'bank_direct' }),
};
