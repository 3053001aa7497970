import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

describe('payment events as webhooks', () => {
  const env = sandboxWithReceiver();

  async function receivedFor(path: string, secret: string) {
    await env.sandbox.background.drain();
    return env.receiver.received
      .filter((r) => r.path === path)
      .map((r) => {
        expect(verifyWebhookSignature({ header: r.headers['svc-signature'] as string, rawBody: r.rawBody, secret }).valid).toBe(true);
        return JSON.parse(r.rawBody) as { type: string; data: Record<string, unknown> };
      });
  }

  it('delivers charge.approved signed, and a paid session never fires session.expired later', async () => {
    const { keys } = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/approved` } });
    const session = await openSession(env.sandbox, keys.secretTest);
    const paid = await checkoutCharge(env.sandbox, session.reference);
    expect(paid.status).toBe(200);

    const events = await receivedFor('/approved', endpoint.body.secret);
    expect(events.map((e) => e.type)).toEqual(['charge.approved']);
    expect(events[0]!.data).toMatchObject({ sessionReference: session.reference, status: 'approved', transactionReference: paid.body.transaction.reference });

    env.sandbox.advance(3600);
    await env.sandbox.background.drain();
    expect(env.receiver.received.filter((r) => r.path === '/approved').map((r) => JSON.parse(r.rawBody).type)).toEqual(['charge.approved']);
  });

  it('delivers charge.declined and session.expired with max_failures_reached', async () => {
    const { keys } = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/declined` } });
    const session = await openSession(env.sandbox, keys.secretTest, { maxFailures: 0 });
    await checkoutCharge(env.sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });

    const events = await receivedFor('/declined', endpoint.body.secret);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.declined', 'session.expired']);
    expect(events.find((e) => e.type === 'session.expired')!.data).toEqual({ sessionReference: session.reference, reason: 'max_failures_reached', failureCount: 1, maxFailures: 0, metadata: {} });
  });
});
