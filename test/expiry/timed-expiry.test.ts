import { describe, expect, it } from 'vitest';
import { SCHEDULE_LEAD_SECONDS, expiryScheduleName } from '../../shared/domain/expiry-timing.ts';
import { verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { forceSessionState } from '../support/direct-writes.ts';
import { itemsOfMerchant } from '../support/dynamo.ts';
import { startTestSandbox } from '../support/sandbox.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

describe('timed session expiry in the sandbox', () => {
  const env = sandboxWithReceiver();

  async function merchantWithEndpoint(path: string) {
    const { merchant, keys } = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}${path}` } });
    return { merchant, keys, secret: endpoint.body.secret as string };
  }

  const createSession = async (key: string, body: Record<string, unknown> = {}) =>
    (await env.sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 500, currency: 'VES', expiresInMinutes: 2, ...body } })).body as { reference: string; expiresAt: string };

  const eventsAt = (path: string) => env.receiver.received.filter((r) => r.path === path).map((r) => ({ request: r, envelope: JSON.parse(r.rawBody) }));

  it('fires session.expired within 5 seconds of expiresAt on the sandbox clock, handed over from the early schedule', async () => {
    const { keys, secret } = await merchantWithEndpoint('/alone');
    const session = await createSession(keys.secretTest, { maxFailures: 3 });
    await env.sandbox.background.drain();

    // The schedule fires SCHEDULE_LEAD_SECONDS early and queues the expiry for the exact remaining time.
    env.sandbox.advance(120 - SCHEDULE_LEAD_SECONDS);
    await env.sandbox.background.drain();
    expect(env.sandbox.background.queues.sessionExpiry.depth).toBe(1);
    // The sandbox clock also runs in real time: the margin covers a slow, loaded machine.
    env.sandbox.advance(SCHEDULE_LEAD_SECONDS - 10);
    await env.sandbox.background.drain();
    expect(eventsAt('/alone')).toHaveLength(0);
    expect((await env.sandbox.deps.sessions.get(session.reference))?.status).toBe('created');

    env.sandbox.advance(10);
    await env.sandbox.background.drain();
    const [expired, ...more] = eventsAt('/alone');
    expect(more).toHaveLength(0);
    expect(expired!.envelope).toMatchObject({ type: 'session.expired', data: { sessionReference: session.reference, reason: 'expired', failureCount: 0, maxFailures: 3 } });
    const lateMs = Date.parse(expired!.envelope.createdAt) - Date.parse(session.expiresAt);
    expect(lateMs).toBeGreaterThanOrEqual(0);
    expect(lateMs).toBeLessThan(5_000);
    expect(verifyWebhookSignature({ header: expired!.request.headers['svc-signature'] as string, rawBody: expired!.request.rawBody, secret }).valid).toBe(true);
    expect(await env.sandbox.deps.sessions.get(session.reference)).toMatchObject({ status: 'expired', closedReason: 'expired', expiresAt: session.expiresAt });
  });

  it('recovers pending expiries from DynamoDB after a restart', async () => {
    const { keys } = await merchantWithEndpoint('/restart');
    const session = await createSession(keys.secretTest);
    await env.sandbox.background.drain();
    await env.sandbox.stop();
    env.sandbox = await startTestSandbox({ restartOf: env.sandbox });

    env.sandbox.advance(120);
    await env.sandbox.background.drain();
    expect(eventsAt('/restart').map((e) => e.envelope.data)).toEqual([{ sessionReference: session.reference, reason: 'expired', failureCount: 0, maxFailures: null, metadata: {} }]);
  });

  it('expires on time after a restart between the early schedule and expiresAt (the hand-over message was in memory)', async () => {
    const { keys } = await merchantWithEndpoint('/handover-restart');
    const session = await createSession(keys.secretTest);
    await env.sandbox.background.drain();
    env.sandbox.advance(120 - SCHEDULE_LEAD_SECONDS);
    await env.sandbox.background.drain();
    expect(env.sandbox.background.queues.sessionExpiry.depth).toBe(1);

    await env.sandbox.stop();
    env.sandbox = await startTestSandbox({ restartOf: env.sandbox });
    env.sandbox.advance(SCHEDULE_LEAD_SECONDS);
    await env.sandbox.background.drain();

    expect(eventsAt('/handover-restart').map((e) => e.envelope.data)).toEqual([{ sessionReference: session.reference, reason: 'expired', failureCount: 0, maxFailures: null, metadata: {} }]);
  });

  it('does not expire a session whose charge is at the bank', async () => {
    const { keys } = await merchantWithEndpoint('/in-flight');
    const session = await createSession(keys.secretTest);
    await env.sandbox.background.drain();
    await forceSessionState(env.sandbox.deps, session.reference, { status: 'processing' });
    env.sandbox.advance(130);
    await env.sandbox.background.drain();
    expect(eventsAt('/in-flight')).toHaveLength(0);
    expect((await env.sandbox.deps.sessions.get(session.reference))?.status).toBe('processing');
  });

  it('an early merchant expiry cancels the timer: one session.expired per session, however often the expiry runs', async () => {
    const { merchant, keys } = await merchantWithEndpoint('/early');
    const session = await createSession(keys.secretTest);
    await env.sandbox.background.drain();
    const schedules = async () => (await itemsOfMerchant(merchant.id)).filter((i) => i.type === 'local_schedule').map((i) => i.name);
    expect(await schedules()).toEqual([expiryScheduleName(session.reference)]);
    await env.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });
    await env.sandbox.background.drain();
    expect(await schedules()).toEqual([]);

    // Even a stray expiry message (at-least-once delivery) changes nothing.
    await env.sandbox.background.queues.sessionExpiry.send({ reference: session.reference });
    await env.sandbox.background.queues.sessionExpiry.send({ reference: session.reference });
    env.sandbox.advance(130);
    await env.sandbox.background.drain();
    expect(eventsAt('/early').map((e) => e.envelope.data.reason)).toEqual(['merchant_request']);
    const stored = await env.sandbox.deps.outbox.listForMerchant(merchant.id, 'test');
    expect(stored.filter((e) => e.envelope.type === 'session.expired')).toHaveLength(1);
  });
});
