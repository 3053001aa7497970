/**
 * Issue 9.2: races, each repeated. The sandbox bank records every call, so "exactly one charge" is counted at the
 * bank, not inferred from our own answers.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes.ts';
import { checkoutCharge, openSession } from '../support/checkout.ts';
import { alignToNextMinute, ensureRoomInUtcDay } from '../support/clock.ts';
import { figureCounter, reportFigures } from '../support/figures.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import { SUITE_TIMEOUT_MS } from './suite-limits.ts';

const REPEATS = Number(process.env.RACE_REPEATS ?? 10);
const CLIENTS = 12;

const countBy = (answers: TestResponse[]) => answers.reduce<Record<string, number>>((acc, r) => ({ ...acc, [`${r.status}${r.body?.code ? ` ${r.body.code}` : ''}`]: (acc[`${r.status}${r.body?.code ? ` ${r.body.code}` : ''}`] ?? 0) + 1 }), {});

describe('races', { timeout: SUITE_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  const figures = figureCounter('racesRun', 'parallelRequests', 'bankChargesSeen', 'doubleCharges', 'overLimitAccepted');

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    reportFigures('races', figures);
    await sandbox?.stop();
  });

  const bankChargesOf = (transactionReferences: string[] | undefined) => sandbox.bank.calls({ operation: 'charge' }).filter((c) => (transactionReferences ?? []).includes(c.reference));

  it(`lets exactly one of ${CLIENTS} parallel charges on a session reach the bank, ${REPEATS} times`, async () => {
    const { keys } = await sandbox.newMerchant();
    for (let round = 0; round < REPEATS; round++) {
      const session = await openSession(sandbox, keys.secretTest);
      const answers = await Promise.all(Array.from({ length: CLIENTS }, () => checkoutCharge(sandbox, session.reference)));
      figures.racesRun++;
      figures.parallelRequests += CLIENTS;

      expect(answers.filter((a) => a.status === 200), JSON.stringify(countBy(answers))).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 200)) {
        expect(refused.status).toBe(409);
        expect(['charge_in_flight', 'session_completed']).toContain(refused.body.code);
      }
      const stored = (await sandbox.deps.sessions.get(session.reference))!;
      const atBank = bankChargesOf(stored.transactionReferences);
      figures.bankChargesSeen += atBank.length;
      if (atBank.length > 1) figures.doubleCharges++;
      expect(atBank).toHaveLength(1);
      expect(stored).toMatchObject({ status: 'completed', attemptCount: 1 });
    }
  });

  it(`runs one session create for one Idempotency-Key sent by ${CLIENTS} clients at once, ${REPEATS} times`, async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    for (let round = 0; round < REPEATS; round++) {
      const key = randomUUID();
      const body = { amountMinor: 700 + round, currency: 'VES', description: `race ${round}` };
      const answers = await Promise.all(Array.from({ length: CLIENTS }, () => sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body, headers: { 'idempotency-key': key } })));
      figures.racesRun++;
      figures.parallelRequests += CLIENTS;

      const created = answers.filter((a) => a.status === 201);
      expect(created.length, JSON.stringify(countBy(answers))).toBeGreaterThanOrEqual(1);
      // Every 201 is the one session (the others are replays); every other answer says "in progress, retry".
      expect(new Set(created.map((a) => a.body.reference)).size).toBe(1);
      expect(created.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
      for (const other of answers.filter((a) => a.status !== 201)) expect([other.status, other.body.code]).toEqual([409, 'idempotency_in_progress']);
    }
    const listed = await sandbox.request('GET', '/v1/sessions?pageSize=100', { key: keys.secretTest });
    expect(listed.body.total).toBe(REPEATS);
    expect(listed.body.data.every((s: { merchantId?: string }) => s.merchantId === undefined || s.merchantId === merchant.id)).toBe(true);
  });

  it(`charges the bank once for one Idempotency-Key sent by ${CLIENTS} checkout clients at once, ${REPEATS} times`, async () => {
    const { keys } = await sandbox.newMerchant();
    for (let round = 0; round < REPEATS; round++) {
      const session = await openSession(sandbox, keys.secretTest);
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: CLIENTS }, () => checkoutCharge(sandbox, session.reference, {}, { idempotencyKey: key })));
      figures.racesRun++;
      figures.parallelRequests += CLIENTS;
      for (const a of answers) expect([200, 409], a.text).toContain(a.status);
      const stored = (await sandbox.deps.sessions.get(session.reference))!;
      const atBank = bankChargesOf(stored.transactionReferences);
      figures.bankChargesSeen += atBank.length;
      if (atBank.length > 1) figures.doubleCharges++;
      expect(atBank).toHaveLength(1);
      expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.body.transaction.reference)).size).toBe(1);
    }
  });

  it(`ends expire racing a charge in one consistent state, ${REPEATS * 2} times`, async () => {
    const { keys } = await sandbox.newMerchant();
    const outcomes = { paid: 0, expired: 0 };
    for (let round = 0; round < REPEATS * 2; round++) {
      const session = await openSession(sandbox, keys.secretTest);
      // Three interleavings in turn: sent together, expire once the bank has the charge, expire after the answer.
      // Waiting is on events (the bank's call log, the answer), never on time.
      const bankBefore = sandbox.bank.calls({ operation: 'charge' }).length;
      const charging = checkoutCharge(sandbox, session.reference);
      if (round % 3 === 1) while (sandbox.bank.calls({ operation: 'charge' }).length === bankBefore) await new Promise((r) => setImmediate(r));
      if (round % 3 === 2) await charging;
      const [charge, expired] = await Promise.all([charging, sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest })]);
      figures.racesRun++;
      figures.parallelRequests += 2;
      const stored = (await sandbox.deps.sessions.get(session.reference))!;
      const atBank = bankChargesOf(stored.transactionReferences);
      if (charge!.status === 200) {
        outcomes.paid++;
        expect([expired!.status, stored.status, atBank.length]).toEqual([409, 'completed', 1]);
        expect(['session_completed', 'charge_in_flight']).toContain(expired!.body.code);
      } else {
        outcomes.expired++;
        expect(expired!.status, expired!.text).toBe(200);
        expect([410, 409]).toContain(charge!.status);
        expect([stored.status, atBank.length]).toEqual(['expired', 0]);
      }
    }
    console.log(`[reliability] expire vs charge outcomes: ${JSON.stringify(outcomes)}`);
  });

  // Issue 4's vault: only once /v1/cards is in the manifest.
  const hasVault = Object.values(routes).some((r) => r.path.startsWith('/v1/cards'));
  if (!hasVault) it.todo('two approvals of the same card racing store one card (waits for /v1/cards, issue 4)');
  it.skipIf(!hasVault)(`stores one card when approvals of the same customer and card race, ${REPEATS} times`, async () => {
    const { keys } = await sandbox.newMerchant();
    for (let round = 0; round < REPEATS; round++) {
      const customerRef = `cust_race_${round}`;
      const sessions = await Promise.all(Array.from({ length: 4 }, () => openSession(sandbox, keys.secretTest, { customerRef })));
      const answers = await Promise.all(sessions.map((s) => checkoutCharge(sandbox, s.reference)));
      figures.racesRun++;
      figures.parallelRequests += sessions.length;
      expect(answers.map((a) => a.body?.transaction?.status)).toEqual(sessions.map(() => 'approved'));
      const cards = await sandbox.request('GET', `/v1/cards?customerRef=${customerRef}`, { key: keys.secretTest });
      expect(cards.body, cards.text).toHaveLength(1);
    }
  });

  it(`never accepts more than the limit in a window under parallel load, over ${REPEATS} windows`, async () => {
    for (let round = 0; round < REPEATS; round++) {
      const limit = 3 + ((round * 7) % 11);
      const parallel = limit * 3;
      const { keys } = await sandbox.newMerchant({ changes: { rateLimits: { sessions: { perMinute: limit, perDay: 100_000 }, reads: { perMinute: limit, perDay: 100_000 } } } });
      ensureRoomInUtcDay(sandbox);
      alignToNextMinute(sandbox);
      const answers = await Promise.all([
        ...Array.from({ length: parallel }, () => sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 100, currency: 'VES' } })),
        ...Array.from({ length: parallel }, () => sandbox.request('GET', '/v1/sessions', { key: keys.secretLive })),
      ]);
      figures.racesRun++;
      figures.parallelRequests += parallel * 2;
      const created = answers.slice(0, parallel).filter((a) => a.status === 201).length;
      const read = answers.slice(parallel).filter((a) => a.status === 200).length;
      figures.overLimitAccepted += Math.max(0, created - limit) + Math.max(0, read - limit);
      for (const a of answers) expect([200, 201, 429], a.text).toContain(a.status);
      // A real-time minute could end mid-burst only if the burst took a minute: the clock is the sandbox's.
      expect([created, read]).toEqual([limit, limit]);
      const listed = await sandbox.request('GET', '/v1/sessions', { key: keys.secretTest });
      expect(listed.status).toBe(429);
      sandbox.advance(60);
      expect((await sandbox.request('GET', '/v1/sessions', { key: keys.secretTest })).body.total).toBe(limit);
    }
  });
});
