/**
 * svc_reference: the connector that speaks this project's own reference protocol (card-charges.ts), served by the
 * sandbox bank (infra/sandbox/bank/). It keeps the three gateway ids merchants, sessions and stored cards already
 * record, so existing integrations and their test cards work unchanged. It is also the only connector that carries
 * the spec's stored-card re-verification (bank_otp): no public bank documents one.
 */
import * as z from 'zod';
import type { Connector } from '../connector.ts';
import { cardBankGateway } from './card-bank-gateway.ts';
import { cardProcessorGateway } from './card-processor-gateway.ts';
import { svcReferenceGateways } from './profile.ts';

/** The reference banks take the credentials object as issued: any non-empty JSON object. */
const ReferenceCredentialsSchema = z.record(z.string(), z.unknown()).refine((value) => Object.keys(value).length > 0, { error: 'must be a non-empty JSON object' });

export const svcReferenceConnector: Connector<'bank_direct' | 'bank_otp' | 'card_processor'> = {
  id: 'svc_reference',
  gateways: svcReferenceGateways,
  credentials: ReferenceCredentialsSchema,
  create: (gateway, { urls, timeoutMs }) =>
    gateway === 'card_processor'
      ? cardProcessorGateway({ baseUrl: urls.live, timeoutMs })
      : cardBankGateway(gateway, { baseUrl: urls.live, timeoutMs, environments: gateway === 'bank_direct' }),
};
