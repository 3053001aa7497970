import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { keys } from '../../shared/store/keys.ts';
import { SCHEDULE_LEAD_SECONDS } from '../../shared/domain/expiry-timing.ts';
import { RETRY_DELAYS_SECONDS } from '../../shared/webhooks/retry-schedule.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

/**
 * The other tests move the clock and call drain(); these call it never, as `npm start` never does: the background
 * must react to a write, a send, a due timer and a jump of the clock by itself. Not a speed check (that is the
 * benchmark's): the wait is generous, only nothing may be left waiting for a drain that never comes.
 */
const ON_ITS_OWN = { timeout: 20_000, interval: 50 };

describe('the sandbox background on its own, without drain()', () => {
  const env = sandboxWithReceiver();

  async function merchantWithEndpoint(path: string) {
    const { keys } = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}${path}` } });
    expect(endpoint.status).toBe(201);
    return keys.secretTest;
  }

  const createSession = async (key: string) =>
    (await env.sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 500, currency: 'VES', expiresInMinutes: 2 } })).body as { reference: string; expiresAt: string };

  const eventsAt = (path: string) => env.receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.rawBody) as { type: string; data: { reason: string } });

  it('delivers the event of a write, and fires a timed expiry when the sandbox clock jumps past it', async () => {
    const key = await merchantWithEndpoint('/own');
    const byMerchant = await createSession(key);
    const timed = await createSession(key);
    await env.sandbox.request('POST', `/v1/sessions/${byMerchant.reference}/expire`, { key });
    await vi.waitFor(() => expect(eventsAt('/own').map((e) => e.data.reason)).toEqual(['merchant_request']), ON_ITS_OWN);

    // The planner's schedule, SCHEDULE_LEAD_SECONDS ahead of expiresAt, is the next timer of the scheduler.
    const scheduledAt = Date.parse(timed.expiresAt) - SCHEDULE_LEAD_SECONDS * 1000;
    await vi.waitFor(() => expect(env.sandbox.background.scheduler.nextDueAt()).toBe(scheduledAt), ON_ITS_OWN);
    env.sandbox.advance((Date.parse(timed.expiresAt) - env.sandbox.clock.now()) / 1000 + 1);
    await vi.waitFor(() => expect(eventsAt('/own').map((e) => e.data.reason)).toEqual(['merchant_request', 'expired']), ON_ITS_OWN);
    expect(await env.sandbox.deps.sessions.get(timed.reference)).toMatchObject({ status: 'expired', closedReason: 'expired' });
  });

  it('sends a failed delivery again once its visibility timeout ends on the sandbox clock', async () => {
    const key = await merchantWithEndpoint('/retry');
    env.receiver.failNext(500);
    const session = await createSession(key);
    await env.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key });
    await vi.waitFor(() => expect(eventsAt('/retry')).toHaveLength(1), ON_ITS_OWN);
    // The sender hides the message for the first retry delay (not the 300 s it is hidden while in flight).
    const retryIn = () => env.sandbox.background.queues.webhookDeliveries.nextVisibleAt()! - env.sandbox.clock.now();
    await vi.waitFor(() => expect(retryIn()).toBeLessThanOrEqual(RETRY_DELAYS_SECONDS[0]! * 1000), ON_ITS_OWN);

    env.sandbox.advance(RETRY_DELAYS_SECONDS[0]!);
    await vi.waitFor(() => expect(eventsAt('/retry')).toHaveLength(2), ON_ITS_OWN);
    expect(eventsAt('/retry').map((e) => e.type)).toEqual(['session.expired', 'session.expired']);
  });
  it('delivers an event while an earlier stream batch still runs, and keeps each session\'s changes in stream order', async () => {
    const key = await merchantWithEndpoint('/parallel');
    const { scheduler } = env.sandbox.background;
    const calls: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const schedule = scheduler.schedule.bind(scheduler);
    const cancel = scheduler.cancel.bind(scheduler);
    // The planner's batch with the new session waits here, as a slow batch would.
    const scheduling = vi.spyOn(scheduler, 'schedule').mockImplementation(async (...args) => {
      calls.push('schedule');
      await held;
      return schedule(...args);
    });
    const cancelling = vi.spyOn(scheduler, 'cancel').mockImplementation(async (name) => {
      calls.push('cancel');
      return cancel(name);
    });
    try {
      const session = await createSession(key);
      await vi.waitFor(() => expect(calls).toEqual(['schedule']), ON_ITS_OWN);
      // The expiry writes the session's change (its item's record waits behind the insert) and its event (another
      // item's record, in a later batch): the event is delivered while the first batch still waits.
      expect((await env.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key })).status).toBe(200);
      await vi.waitFor(() => expect(eventsAt('/parallel').map((e) => e.data.reason)).toEqual(['merchant_request']), ON_ITS_OWN);
      expect(calls).toEqual(['schedule']);

      release();
      await vi.waitFor(() => expect(calls).toEqual(['schedule', 'cancel']), ON_ITS_OWN);
      await vi.waitFor(() => expect(scheduler.nextDueAt()).toBeUndefined(), ON_ITS_OWN);
    } finally {
      release();
      scheduling.mockRestore();
      cancelling.mockRestore();
    }
  });
});

describe("the sandbox's stream position", () => {
  const env = sandboxWithReceiver();

  /** This sandbox's saved position in each shard of the table's stream, as a restart would read it. */
  async function savedPositions(): Promise<Record<string, string>> {
    const { Table } = await env.sandbox.deps.db.send(new DescribeTableCommand({ TableName: env.sandbox.deps.config.tableName }));
    const { pk } = keys.localStreamCheckpoint(env.sandbox.streamReaderId, Table!.LatestStreamArn!);
    const { Items = [] } = await env.sandbox.deps.db.send(new QueryCommand({ TableName: env.sandbox.deps.config.tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': pk } }));
    return Object.fromEntries(Items.filter((i) => i.sequenceNumber).map((i) => [i.sk as string, i.sequenceNumber as string]));
  }

  it('is saved after records a worker took, not after writes no worker takes (rate counters, idempotency keys)', async () => {
    const { keys: merchantKeys } = await env.sandbox.newMerchant();
    const key = merchantKeys.secretTest;
    const create = () => env.sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 500, currency: 'VES' } });
    expect((await create()).status).toBe(201);
    await env.sandbox.background.drain();
    const afterSession = await savedPositions();
    expect(Object.keys(afterSession).length).toBeGreaterThan(0);

    // Each read writes its rate counter (a stream record): read to its end, none is saved.
    for (let i = 0; i < 5; i++) expect((await env.sandbox.request('GET', '/v1/sessions', { key })).status).toBe(200);
    await env.sandbox.background.drain();
    expect(await savedPositions()).toEqual(afterSession);

    expect((await create()).status).toBe(201);
    await env.sandbox.background.drain();
    expect(await savedPositions()).not.toEqual(afterSession);
  });
});
