import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxBank, type SandboxBank } from '../../infra/sandbox/bank/sandbox-bank.ts';
import { MERCANTIL_TEST_DATA, startMercantilSimulator, type MercantilSimulator } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { startStripeSimulator, type StripeSimulator } from '../../infra/sandbox/stripe/stripe-simulator.ts';
import { systemClock } from '../../shared/clock.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { connectorOf } from '../../shared/connectors/registry.ts';
import type { GatewayId } from '../../shared/domain/merchant.ts';
import type { BankAccount, ChargeRequest, GatewayOutcome } from '../../shared/gateways/payment-gateway.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';

/**
 * A network in front of its simulator that answers the card-carrying request with `status`: a 307 to the receiver
 * (which must get nothing), or a 503 to compare with. Every other request is passed to the simulator as it came.
 */
async function networkAnswering(upstream: string, carriesCard: (method: string, path: string) => boolean, status: number, redirectTo: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (carriesCard(req.method ?? 'GET', path)) {
        res.writeHead(status, status < 400 ? { location: `${redirectTo}${path}` } : { 'content-type': 'application/json' });
        res.end(status < 400 ? '' : '{}');
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length')) as Record<string, string>;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(`${upstream}${path}`, { method: req.method, headers, body }).then(
        async (reply) => {
          const replayed = reply.headers.get('idempotent-replayed');
          res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json', ...(replayed ? { 'idempotent-replayed': replayed } : {}) });
          res.end(await reply.text());
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const client = { ipAddress: '190.202.1.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' };
let counter = 0;
const chargeOf = (number: string, currency: 'VES' | 'USD'): ChargeRequest => {
  const reference = `txn_redirect${++counter}${Date.now()}`;
  return {
    transactionReference: reference,
    sessionReference: `cs_${reference}`,
    amountMinor: 2500,
    currency,
    payment: { card: { number, expMonth: 12, expYear: 2040, cvv: '123', holderName: 'Ana Pérez' }, document: currency === 'VES' ? { type: 'V', id: '18366876' } : null },
    client,
  };
};

/** The kind and code of an outcome: what the payment flow decides on (the detail names the HTTP status). */
const verdict = (outcome: GatewayOutcome) => ({ kind: outcome.kind, code: 'code' in outcome ? outcome.code : undefined });

describe('a payment network answering a card-carrying request with a redirect', () => {
  let receiver: TestReceiver;
  let bank: SandboxBank;
  let mercantil: MercantilSimulator;
  let stripe: StripeSimulator;
  beforeAll(async () => {
    [receiver, bank, mercantil, stripe] = await Promise.all([startReceiver(), startSandboxBank({ clock: systemClock }), startMercantilSimulator({ clock: systemClock }), startStripeSimulator({ clock: systemClock })]);
  });
  afterAll(() => Promise.all([receiver.close(), bank.close(), mercantil.close(), stripe.close()]));

  const cases: { transport: string; gateway: GatewayId; upstream: () => string; carriesCard: (method: string, path: string) => boolean; account: BankAccount; request: () => ChargeRequest; expected: ReturnType<typeof verdict> }[] = [
    {
      transport: 'bank-http (Mercantil pay, credit card)',
      gateway: 'mercantil',
      upstream: () => mercantil.baseUrl,
      carriesCard: (_method, path) => path.endsWith('/payment/pay'),
      account: { environment: 'test', credentials: JSON.stringify(SIMULATOR_TEST_CREDENTIALS) },
      request: () => chargeOf(MERCANTIL_TEST_DATA.credit.cardNumber, 'VES'),
      // As after a 5xx: the bank's search is read at once, and it has no record of the invoice.
      expected: { kind: 'failed', code: 'processor_unavailable' },
    },
    {
      transport: 'bank-http (reference protocol charge)',
      gateway: 'bank_direct',
      upstream: () => bank.baseUrls.bank_direct,
      carriesCard: (method, path) => method === 'POST' && path.endsWith('/charges'),
      account: { environment: 'test', credentials: null },
      request: () => chargeOf('4111111111111111', 'VES'),
      expected: { kind: 'failed', code: '0096' },
    },
    {
      transport: 'bank-http (reference protocol charge and its status read)',
      gateway: 'bank_direct',
      upstream: () => bank.baseUrls.bank_direct,
      carriesCard: () => true,
      account: { environment: 'test', credentials: null },
      request: () => chargeOf('4111111111111111', 'VES'),
      // The status read cannot say either: the charge may have happened, so it stays pending (settled later).
      expected: { kind: 'unknown', code: undefined },
    },
    {
      transport: 'stripe-http (PaymentIntent confirm)',
      gateway: 'stripe',
      upstream: () => stripe.url,
      carriesCard: (_method, path) => path.endsWith('/confirm'),
      account: { environment: 'test', credentials: JSON.stringify({ secretKey: 'sk_test_redirect00000001' }) },
      request: () => chargeOf('4242424242424242', 'USD'),
      // As after a 5xx: the intent is read at once, and it holds no card of this attempt.
      expected: { kind: 'failed', code: 'processor_unavailable' },
    },
  ];

  for (const { transport, gateway, upstream, carriesCard, account, request, expected } of cases) {
    it(`${transport}: a 307 is not followed, nothing reaches its Location, and the outcome is the one a 503 gets`, async () => {
      const heardBefore = receiver.received.length;
      const outcomes: Record<number, GatewayOutcome> = {};
      for (const status of [307, 503]) {
        const network = await networkAnswering(upstream(), carriesCard, status, receiver.url);
        try {
          const adapter = connectorOf(gateway).create(gateway, { urls: { live: network.url, test: network.url }, timeoutMs: 5_000 });
          outcomes[status] = await adapter.charge(request(), account);
        } finally {
          await network.close();
        }
      }

      expect(receiver.received.slice(heardBefore)).toEqual([]);
      expect(verdict(outcomes[307]!)).toEqual(verdict(outcomes[503]!));
      expect(verdict(outcomes[307]!)).toEqual(expected);
    });
  }
});
