import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionExpiredEvent } from '../../shared/domain/events.ts';
import { RETRY_DELAYS_SECONDS } from '../../shared/webhooks/retry-schedule.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';

describe('webhooks across a sandbox restart', () => {
  let sandbox: TestSandbox;
  /** Another sandbox on the same table that owns no merchant: it writes while `sandbox` is stopped, dispatches nothing. */
  let bystander: TestSandbox;
  let receiver: TestReceiver;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    bystander = await startTestSandbox();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await sandbox.stop();
    await bystander.stop();
    await receiver.close();
  });

  async function merchantWithEndpoint(path: string) {
    const { keys } = await sandbox.newMerchant();
    const endpoint = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${receiver.url}${path}` } });
    expect(endpoint.status).toBe(201);
    return { keys, endpointId: endpoint.body.id as string };
  }

  const createSession = async (key: string) =>
    (await sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 500, currency: 'VES' } })).body as { reference: string };

  const receivedAt = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.rawBody));

  it('dispatches an event written while the sandbox was stopped', async () => {
    const { keys } = await merchantWithEndpoint('/while-stopped');
    const { reference } = await createSession(keys.secretTest);
    await sandbox.background.drain();
    await sandbox.stop();

    const session = (await bystander.deps.sessions.get(reference))!;
    const closedAt = new Date(sandbox.clock.now()).toISOString();
    await bystander.deps.sessions.close(session, 'merchant_request', closedAt, sessionExpiredEvent(session, 'merchant_request', closedAt));
    await bystander.background.drain();
    expect(receivedAt('/while-stopped')).toHaveLength(0);

    sandbox = await startTestSandbox({ restartOf: sandbox });
    await sandbox.background.drain();
    expect(receivedAt('/while-stopped').map((e) => ({ type: e.type, data: e.data }))).toEqual([
      { type: 'session.expired', data: { sessionReference: reference, reason: 'merchant_request', failureCount: 0, maxFailures: null, metadata: {} } },
    ]);
  });

  it('retries on time after a restart a delivery that was waiting for its retry', async () => {
    const { keys, endpointId } = await merchantWithEndpoint('/retry-after-restart');
    receiver.failNext(500);
    const { reference } = await createSession(keys.secretTest);
    await sandbox.request('POST', `/v1/sessions/${reference}/expire`, { key: keys.secretTest });
    await sandbox.background.drain();
    expect(receivedAt('/retry-after-restart')).toHaveLength(1);
    await sandbox.stop();

    sandbox = await startTestSandbox({ restartOf: sandbox });
    // The sandbox clock also runs in real time: the margin covers a slow, loaded machine.
    sandbox.advance(RETRY_DELAYS_SECONDS[0]! - 10);
    await sandbox.background.drain();
    expect(receivedAt('/retry-after-restart')).toHaveLength(1);
    sandbox.advance(10);
    await sandbox.background.drain();
    expect(receivedAt('/retry-after-restart')).toHaveLength(2);

    const list = await sandbox.request('GET', `/v1/webhooks/deliveries?endpointId=${endpointId}`, { key: keys.secretTest });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ state: 'succeeded', attemptCount: 2, lastStatusCode: 200, nextRetryAt: null });
    expect(list.body.data[0].attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
  });
});
