/**
 * Issue 9.3 (storage): DynamoDB Local stopped and started again under load. A separate, file-backed DynamoDB
 * Local on its own port (the run's shared one must not go down under other files), a sandbox over it, clients
 * creating sessions with Idempotency-Keys and retrying what was not acknowledged. After the restart the sandbox
 * serves again, every acknowledged session is readable, and no key made two sessions.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../infra/sandbox/free-port.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant } from '../../shared/admin/merchant-admin.ts';
import { OffsetClock } from '../../shared/clock.ts';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../../infra/sandbox/dynamodb-local.ts';
import { startSandbox, type Sandbox } from '../../infra/sandbox/sandbox.ts';
import { expectNoStackTrace } from '../support/assertions.ts';
import { figureCounter, reportFigures } from '../support/figures.ts';
import { rawRequest } from '../support/raw-request.ts';

const TABLE = 'svc-restart';
const CLIENTS = 6;
const BEFORE = 20;
const DURING = 20;
const AFTER = 20;

describe('DynamoDB stopped and restarted under load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-restart-'));
  let port: number;
  let dynamo: DynamoLocal;
  let sandbox: Sandbox;
  let secretKey: string;
  const figures = figureCounter('requests', 'acknowledged', 'refusedWhileDown', 'fiveHundredsWhileDown', 'retriedAfterRestart', 'failedAfterRestart', 'lostAcknowledged', 'duplicateSessions', 'restarts', 'restartSeconds');

  beforeAll(async () => {
    port = await freePort();
    dynamo = await startDynamoLocal({ port, dbPath: join(dir, 'db'), shortLived: true });
    await ensureTable(dynamo.endpoint, TABLE);
    sandbox = await startSandbox({ dynamoEndpoint: dynamo.endpoint, tableName: TABLE, clock: new OffsetClock(), keyDir: join(dir, 'keys'), logLevel: 'SILENT', keyCacheTtlMs: 30_000 });
    const { keys } = await createMerchant(sandbox.deps, { name: 'Restart merchant', now: new Date(sandbox.clock.now()), provisioned: true });
    secretKey = keys.secretTest;
  }, 120_000);
  afterAll(async () => {
    reportFigures('faults-dynamo', figures);
    await sandbox?.stop();
    await dynamo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One logical create: the same key until it is acknowledged. */
  const attempt = async (key: string, amountMinor: number) => {
    figures.requests++;
    const res = await rawRequest(sandbox.url, 'POST', '/v1/sessions', {
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ amountMinor, currency: 'VES' }),
    });
    expectNoStackTrace(res);
    return res;
  };

  /** Runs `count` creates over CLIENTS parallel clients; returns what was acknowledged and what was not. */
  async function load(count: number, pending: { key: string; amountMinor: number }[], acknowledged: Map<string, { reference: string; amountMinor: number }>, downNow: () => boolean) {
    const queue = [...pending.splice(0), ...Array.from({ length: count }, (_, i) => ({ key: randomUUID(), amountMinor: 100 + i }))];
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const res = await attempt(next.key, next.amountMinor);
          if (res.status === 201) {
            acknowledged.set(next.key, { reference: res.body.reference, amountMinor: next.amountMinor });
          } else {
            // The first calls after the restart may still fail (connections to the old process); they are retried.
            if (!downNow()) figures.failedAfterRestart++;
            else if (res.status >= 500) figures.fiveHundredsWhileDown++;
            else figures.refusedWhileDown++;
            // An answer while the table is away is still the one error shape.
            expect(res.body).toMatchObject({ statusCode: res.status, code: expect.any(String) });
            pending.push(next);
          }
        }
      }),
    );
  }

  it('recovers, keeps every acknowledged session, and makes one session per key', async () => {
    const acknowledged = new Map<string, { reference: string; amountMinor: number }>();
    const pending: { key: string; amountMinor: number }[] = [];
    let down = false;

    await load(BEFORE, pending, acknowledged, () => down);
    expect(acknowledged.size).toBe(BEFORE);

    // Stop while clients are sending; start again on the same port and data path while they still are.
    const during = load(DURING, pending, acknowledged, () => down);
    down = true;
    await dynamo.stop();
    await during;
    const restarting = performance.now();
    dynamo = await startDynamoLocal({ port, dbPath: join(dir, 'db'), shortLived: true });
    figures.restartSeconds = Math.round((performance.now() - restarting) / 100) / 10;
    figures.restarts++;
    down = false;

    figures.retriedAfterRestart = pending.length;
    await load(AFTER, pending, acknowledged, () => down);
    // Whatever failed during the restart window is retried with its own key until acknowledged.
    for (let round = 0; pending.length > 0 && round < 5; round++) await load(0, pending, acknowledged, () => down);
    expect(pending).toEqual([]);
    // Recovered means: after a handful of failures at most, everything is acknowledged again.
    expect(figures.failedAfterRestart).toBeLessThanOrEqual(CLIENTS * 2);
    figures.acknowledged = acknowledged.size;

    for (const [key, session] of acknowledged) {
      const res = await rawRequest(sandbox.url, 'GET', `/v1/sessions/${session.reference}`, { headers: { authorization: `Bearer ${secretKey}` } });
      if (res.status !== 200) figures.lostAcknowledged++;
      expect(res.status, `${key}: ${res.text}`).toBe(200);
      expect(res.body.amountMinor).toBe(session.amountMinor);
    }
    const listed = await rawRequest(sandbox.url, 'GET', '/v1/sessions?pageSize=1', { headers: { authorization: `Bearer ${secretKey}` } });
    figures.duplicateSessions = listed.body.total - acknowledged.size;
    expect(listed.body.total).toBe(BEFORE + DURING + AFTER);

    // The background workers (stream, schedules) go on after the restart as well.
    await sandbox.background.drain();
  }, 180_000);
});
