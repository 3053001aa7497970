/**
 * Banco Mercantil (Venezuela), card payments in VES: credit (tdc) paid at once, debit (tdd) with the buyer's second
 * factor; status by search. Sources and every mapping: docs/connectors.md#banco-mercantil.
 */
import type { Connector } from '../connector.ts';
import { MercantilCredentialsSchema } from './credentials.ts';
import { mercantilGateway } from './mercantil-gateway.ts';
import { mercantilGateways } from './profile.ts';

export const mercantilConnector: Connector<'mercantil'> = {
  id: 'mercantil',
  gateways: mercantilGateways,
  credentials: MercantilCredentialsSchema,
  create: (_gateway, { urls, timeoutMs }) => mercantilGateway({ urls, timeoutMs }),
};
