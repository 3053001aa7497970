import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { PARK_AFTER_MS, STREAM_RECORD_TRIES } from '../../shared/background/stream-records.ts';
import { createParkedRecords, parkedRecordId, type ParkedRecord } from '../../shared/background/parked-records.ts';
import { expiryScheduleName } from '../../shared/domain/expiry-timing.ts';
import { runAdminCli } from '../support/admin-cli.ts';
import { testConnection, testDb } from '../support/dynamo.ts';
import { startTestSandbox } from '../support/sandbox.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

/** The sandbox works on its own here (no drain()): waits are for the condition, generous for a loaded machine. */
const PATIENTLY = { timeout: 60_000, interval: 100 };

/** `npm run admin -- dead-letters ...` against the run's table, as an operator types it. */
const deadLetters = (...args: string[]) => runAdminCli(['dead-letters', ...args]);

describe('poison records: retried, parked, visible, replayed', () => {
  const env = sandboxWithReceiver();
  const parked = createParkedRecords(testDb(), testConnection().tableName);
  const parkedFor = async (reference: string): Promise<ParkedRecord | undefined> =>
    (await parked.list()).find((p) => p.workerId === 'planSessionExpiry' && JSON.stringify(p.record).includes(`"${reference}"`));

  it('parks a stream record its worker keeps failing on, shows it, and replays it once the fault is gone: session.expired still arrives', async () => {
    const { keys } = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/poison` } });
    expect(endpoint.status).toBe(201);

    // The fault: the scheduler the expiry planner needs refuses every call.
    const { scheduler } = env.sandbox.background;
    const fault = vi.spyOn(scheduler, 'schedule').mockRejectedValue(new Error('Scheduler unavailable'));
    const session = (await env.sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 500, currency: 'VES', expiresInMinutes: 30 } })).body as {
      reference: string;
      expiresAt: string;
    };
    // Young, the record is reported failed and tried again (an outage may pass): not parked yet.
    const scheduleName = expiryScheduleName(session.reference);
    await vi.waitFor(() => expect(fault.mock.calls.filter(([name]) => name === scheduleName).length).toBeGreaterThan(STREAM_RECORD_TRIES), PATIENTLY);
    expect(await parkedFor(session.reference)).toBeUndefined();
    // Past PARK_AFTER_MS and still failing, it is parked at its next try (the session lives 30 minutes: its expiry
    // schedule is still ahead after this).
    env.sandbox.advance(PARK_AFTER_MS / 1000 + 1);
    await vi.waitFor(async () => expect(await parkedFor(session.reference)).toBeDefined(), PATIENTLY);

    // Retried, then parked whole with its error: nothing dropped.
    const entry = (await parkedFor(session.reference))!;
    expect(entry).toMatchObject({ source: 'stream', attempts: STREAM_RECORD_TRIES, error: { name: 'Error', message: 'Scheduler unavailable' } });
    expect(entry.record).toMatchObject({ eventName: 'INSERT', dynamodb: { NewImage: { reference: { S: session.reference } } } });

    // Visible: on the sandbox activity page and in the CLI's list.
    const page = await fetch(`${env.sandbox.url}/__sandbox/`).then((r) => r.text());
    expect(page).toContain(entry.id);
    expect(page).toContain('Scheduler unavailable');
    const list = await deadLetters('list', '--json');
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { parked: { id: string }[] }).parked.map((p) => p.id)).toContain(entry.id);

    // Replayed while the fault is still there: it fails again and stays parked, with one more try counted.
    const early = await deadLetters('replay', '--id', entry.id);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/failed again .*Scheduler unavailable/);
    expect(await parked.get(entry.id)).toMatchObject({ attempts: 2 * STREAM_RECORD_TRIES });

    // The fault removed, the replay runs the worker on the record: the schedule exists, the record is gone.
    fault.mockRestore();
    const replay = await deadLetters('replay', '--id', entry.id);
    expect({ code: replay.code, stderr: replay.stderr }).toEqual({ code: 0, stderr: '' });
    expect(replay.stdout).toMatch(/replayed successfully/);
    expect(await parked.get(entry.id)).toBeNull();

    // And the webhook the record stood for is delivered when the session expires.
    await vi.waitFor(() => expect(scheduler.nextDueAt()).toBeDefined(), PATIENTLY);
    env.sandbox.advance((Date.parse(session.expiresAt) - env.sandbox.clock.now()) / 1000 + 1);
    await vi.waitFor(() => expect(env.receiver.received.filter((r) => r.path === '/poison').map((r) => (JSON.parse(r.rawBody) as { type: string }).type)).toContain('session.expired'), PATIENTLY);
  }, 240_000);

  it("leaves the replay of a stream record to the sandbox that owns its merchant: another one on the table does not take it", async () => {
    // Test files share the table; a sandbox that took another's replay would run it without that sandbox's faults.
    const other = await startTestSandbox();
    const merchantId = `mer_${randomUUID().replaceAll('-', '')}`;
    const id = parkedRecordId('planSessionExpiry', randomUUID());
    try {
      const record = { eventName: 'INSERT', dynamodb: { NewImage: { type: { S: 'session' }, merchantId: { S: merchantId } } } };
      await parked.park({ id, workerId: 'planSessionExpiry', source: 'stream', record, error: { name: 'Error', message: 'x' }, attempts: 3, parkedAt: new Date().toISOString(), merchantId });
      const requestedAt = new Date().toISOString();
      await parked.requestReplay(id, requestedAt);
      await other.background.drain();
      expect(await parked.get(id)).toMatchObject({ replayRequestedAt: requestedAt, attempts: 3 });
    } finally {
      await other.stop();
      await parked.remove(id);
    }
  }, 120_000);
});
