import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { card, checkoutCharge, openSession } from '../support/checkout.ts';
import type { TestResponse, TestSandbox } from '../support/sandbox.ts';
import type { SandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

/** The sandbox bank's cards whose charges are approved and whose refunds behave as named (docs/payments.md, test cards). */
export const REFUND_CARDS = {
  succeeds: '4111111111111111',
  fails: '4000000000005126',
  staysPending: '4000000000007726',
  timesOut: '4000000000009987',
} as const;

/** A test-mode checkout payment of `amountMinor` VES with this card; answers the transaction and its session. */
export async function paidTransaction(sandbox: TestSandbox, key: string, number: string = REFUND_CARDS.succeeds, amountMinor = 1000, sessionBody: Record<string, unknown> = {}) {
  const session = await openSession(sandbox, key, { amountMinor, ...sessionBody });
  const paid = await checkoutCharge(sandbox, session.reference, { card: card(number) });
  expect(paid.status).toBe(200);
  return { session, transaction: paid.body.transaction as { reference: string; status: string } };
}

export const refund = (sandbox: TestSandbox, key: string, reference: string, body: Record<string, unknown> = {}, idempotencyKey: string = randomUUID()): Promise<TestResponse> =>
  sandbox.request('POST', `/v1/transactions/${reference}/refunds`, { key, body, headers: { 'idempotency-key': idempotencyKey } });

/** A webhook endpoint of the merchant at the receiver, on its own path; answers the path and the signing secret. */
export async function endpointAt(env: SandboxWithReceiver, key: string, enabledEvents?: string[]) {
  const path = `/${randomUUID()}`;
  const created = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key, body: { url: `${env.receiver.url}${path}`, ...(enabledEvents ? { enabledEvents } : {}) } });
  expect(created.status).toBe(201);
  return { path, secret: created.body.secret as string };
}

/**
 * The events delivered to that endpoint so far (after the background work drains), each signature checked, each
 * event once: delivery is at least once (docs/webhooks.md), so a receiver deduplicates by event id, as this one does.
 */
export async function delivered(env: SandboxWithReceiver, endpoint: { path: string; secret: string }) {
  await env.sandbox.background.drain();
  const events = env.receiver.received
    .filter((r) => r.path === endpoint.path)
    .map((r) => {
      expect(verifyWebhookSignature({ header: r.headers['svc-signature'] as string, rawBody: r.rawBody, secret: endpoint.secret, now: Date.now() }).valid).toBe(true);
      return JSON.parse(r.rawBody) as { id: string; type: string; env: string; data: Record<string, any> };
    });
  return [...new Map(events.map((event) => [event.id, event])).values()];
}
