import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { OperationClass, RateLimit } from '../../shared/domain/merchant.ts';
import { rateWindows } from '../../shared/domain/rate-limits.ts';
import { randomToken } from '../../shared/ids.ts';
import { keys } from '../../shared/store/keys.ts';
import { CallCounter } from '../../shared/observability/call-counter.ts';
import { createRateLimitStore, type ConsumeResult } from '../../shared/store/rate-limit-store.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { tableName } = testConnection();
const db = testDb();
const counter = new CallCounter({ measureCapacity: true });
counter.attach(db);
const store = createRateLimitStore(db, tableName);
afterAll(() => db.destroy());

const at = (iso: string) => Date.parse(iso);
const newMerchantId = () => `mer_rate_${randomToken(10)}`;
const ROOMY_DAY = 1_000_000;

/** `count` requests one after the other, all at `now`. */
async function consumeInSequence(merchantId: string, operationClass: OperationClass, limit: RateLimit, now: number, count: number) {
  const results: ConsumeResult[] = [];
  for (let i = 0; i < count; i++) results.push(await store.consume(merchantId, operationClass, limit, now));
  return results;
}

const allowedCount = (results: ConsumeResult[]) => results.filter((r) => r.allowed).length;

/** The day's counter item as stored: the day's count, and the latest minute with its count. */
const counterOf = async (merchantId: string, operationClass: OperationClass, now: number) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: keys.rateWindow(merchantId, operationClass, rateWindows(now).day) }))).Item;

/** The DynamoDB calls and write units that `work` made through the store's client. */
async function callsOf(work: () => Promise<unknown>) {
  const before = counter.snapshot();
  await work();
  const calls = counter.since(before);
  return { commands: calls.map((c) => `${c.command} x${c.calls}`), writeUnits: calls.reduce((n, c) => n + c.capacityUnits, 0) };
}

describe('RateLimitStore', () => {
  it('allows exactly N of 3N parallel requests with a limit of N per minute, in every repetition', async () => {
    // prepare
    const perMinute = 10;
    const repetitions = 5;
    const now = at('2031-05-01T10:00:10.000Z');
    // act: each repetition is a fresh merchant, so its counters start at zero
    const allowedPerRun: number[] = [];
    for (let run = 0; run < repetitions; run++) {
      const merchantId = newMerchantId();
      const results = await Promise.all(
        Array.from({ length: 3 * perMinute }, () => store.consume(merchantId, 'sessions', { perMinute, perDay: ROOMY_DAY }, now)),
      );
      allowedPerRun.push(allowedCount(results));
      expect(await counterOf(merchantId, 'sessions', now)).toMatchObject({ minute: rateWindows(now).minute, minuteCount: perMinute, dayCount: perMinute });
    }
    console.info(`allowed of ${3 * perMinute} parallel requests, limit ${perMinute}/min, per run: ${allowedPerRun.join(', ')}`);
    // assess
    expect(allowedPerRun).toEqual(Array(repetitions).fill(perMinute));
  });

  it('does not count a rejected request: after the minute rolls over, N more are allowed', async () => {
    // prepare: the day allows exactly two full minutes, so one counted rejection would show in the second minute
    const merchantId = newMerchantId();
    const limit = { perMinute: 3, perDay: 6 };
    const first = at('2031-05-01T10:00:30.000Z');
    const second = at('2031-05-01T10:01:00.000Z');
    // act
    const firstMinute = await consumeInSequence(merchantId, 'charge', limit, first, 8);
    const secondMinute = await consumeInSequence(merchantId, 'charge', limit, second, 3);
    // assess
    expect(firstMinute.map((r) => r.allowed)).toEqual([true, true, true, false, false, false, false, false]);
    expect(secondMinute.map((r) => r.allowed)).toEqual([true, true, true]);
    expect(await counterOf(merchantId, 'charge', first)).toMatchObject({ minute: '2031-05-01T10:01', minuteCount: 3, dayCount: 6 });
  });

  it.each([
    ['2031-05-01T10:05:45.500Z', 15],
    ['2031-05-01T10:05:00.000Z', 60],
    ['2031-05-01T10:05:59.999Z', 1],
  ])('answers a full minute window at %s with a Retry-After of %i s, up to the next minute', async (iso, retryAfterSeconds) => {
    // prepare
    const merchantId = newMerchantId();
    const limit = { perMinute: 2, perDay: ROOMY_DAY };
    await consumeInSequence(merchantId, 'reads', limit, at(iso), 2);
    // act
    const rejected = await store.consume(merchantId, 'reads', limit, at(iso));
    // assess
    expect(rejected).toEqual({ allowed: false, retryAfterSeconds });
  });

  it.each([
    ['2031-05-01T23:00:00.000Z', 3_600],
    ['2031-05-01T00:00:00.000Z', 86_400],
    ['2031-05-01T23:59:59.250Z', 1],
  ])('answers a full day window at %s with a Retry-After of %i s, up to UTC midnight', async (iso, retryAfterSeconds) => {
    // prepare
    const merchantId = newMerchantId();
    const limit = { perMinute: 100, perDay: 2 };
    await consumeInSequence(merchantId, 'sessions', limit, at(iso), 2);
    // act
    const rejected = await store.consume(merchantId, 'sessions', limit, at(iso));
    // assess
    expect(rejected).toEqual({ allowed: false, retryAfterSeconds });
  });

  it('answers with the day Retry-After when both windows are full, since the next minute would be refused too', async () => {
    // prepare
    const merchantId = newMerchantId();
    const limit = { perMinute: 1, perDay: 1 };
    const now = at('2031-05-01T22:00:30.000Z');
    await store.consume(merchantId, 'charge', limit, now);
    // act
    const rejected = await store.consume(merchantId, 'charge', limit, now);
    // assess
    expect(rejected).toEqual({ allowed: false, retryAfterSeconds: 2 * 3_600 - 30 });
  });

  it('allows requests again on the next UTC day', async () => {
    // prepare
    const merchantId = newMerchantId();
    const limit = { perMinute: 100, perDay: 1 };
    await store.consume(merchantId, 'sessions', limit, at('2031-05-01T23:59:59.000Z'));
    // act
    const nextDay = await store.consume(merchantId, 'sessions', limit, at('2031-05-02T00:00:00.000Z'));
    // assess
    expect(nextDay).toEqual({ allowed: true });
  });

  it('keeps separate counters per merchant and per operation class', async () => {
    // prepare: merchant A exhausts its sessions minute
    const merchantA = newMerchantId();
    const merchantB = newMerchantId();
    const limit = { perMinute: 2, perDay: ROOMY_DAY };
    const now = at('2031-05-01T12:00:00.000Z');
    await consumeInSequence(merchantA, 'sessions', limit, now, 2);
    // act
    const [aSessions, aCharge, aReads, bSessions] = await Promise.all([
      store.consume(merchantA, 'sessions', limit, now),
      store.consume(merchantA, 'charge', limit, now),
      store.consume(merchantA, 'reads', limit, now),
      store.consume(merchantB, 'sessions', limit, now),
    ]);
    // assess
    expect(aSessions.allowed).toBe(false);
    expect([aCharge, aReads, bSessions]).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
  });
  it('counts with one single-item UpdateItem of 1 write unit, a minute\'s first request included, once the process knows the minute', async () => {
    // prepare
    const merchantId = newMerchantId();
    const limit = { perMinute: 100, perDay: ROOMY_DAY };
    // act
    const first = await callsOf(() => store.consume(merchantId, 'reads', limit, at('2031-05-01T10:00:10.000Z')));
    const sameMinute = await callsOf(() => store.consume(merchantId, 'reads', limit, at('2031-05-01T10:00:40.000Z')));
    const nextMinute = await callsOf(() => store.consume(merchantId, 'reads', limit, at('2031-05-01T10:01:05.000Z')));
    const minuteLater = await callsOf(() => store.consume(merchantId, 'reads', limit, at('2031-05-01T10:07:00.000Z')));
    // assess
    for (const calls of [first, sameMinute, nextMinute, minuteLater]) expect(calls).toEqual({ commands: ['UpdateItem x1'], writeUnits: 1 });
    expect(await counterOf(merchantId, 'reads', at('2031-05-01T10:07:00.000Z'))).toMatchObject({ minute: '2031-05-01T10:07', minuteCount: 1, dayCount: 4 });
  });

  it('takes two round trips at most when another process started the minute, and then counts exactly', async () => {
    // prepare: two processes (two Lambda containers), each with its own memory of the last minute
    const merchantId = newMerchantId();
    const other = createRateLimitStore(db, tableName);
    const limit = { perMinute: 3, perDay: ROOMY_DAY };
    const minute1 = at('2031-05-01T10:00:10.000Z');
    const minute2 = at('2031-05-01T10:01:10.000Z');
    await store.consume(merchantId, 'sessions', limit, minute1);
    await other.consume(merchantId, 'sessions', limit, minute1);
    // act: "other" starts minute 2; "store" still believes in minute 1, then learns
    await other.consume(merchantId, 'sessions', limit, minute2);
    const stale = await callsOf(() => store.consume(merchantId, 'sessions', limit, minute2));
    const learned = await callsOf(() => store.consume(merchantId, 'sessions', limit, minute2));
    const refused = await other.consume(merchantId, 'sessions', limit, minute2);
    // assess
    expect(stale.commands).toEqual(['UpdateItem x2']);
    expect(learned.commands).toEqual(['UpdateItem x1']);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 50 });
    expect(await counterOf(merchantId, 'sessions', minute2)).toMatchObject({ minute: '2031-05-01T10:01', minuteCount: 3, dayCount: 5 });
  });

  it('counts a request that arrives after its minute turned in the newer minute, never moving the counter back', async () => {
    // prepare: a request of 10:01 was counted first; one of 10:00 (sent a moment earlier) arrives after it
    const merchantId = newMerchantId();
    const limit = { perMinute: 2, perDay: ROOMY_DAY };
    await store.consume(merchantId, 'charge', limit, at('2031-05-01T10:01:00.100Z'));
    // act
    const late = await createRateLimitStore(db, tableName).consume(merchantId, 'charge', limit, at('2031-05-01T10:00:59.900Z'));
    const third = await store.consume(merchantId, 'charge', limit, at('2031-05-01T10:01:00.200Z'));
    // assess
    expect(late).toEqual({ allowed: true });
    expect(third).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(await counterOf(merchantId, 'charge', at('2031-05-01T10:01:00.000Z'))).toMatchObject({ minute: '2031-05-01T10:01', minuteCount: 2, dayCount: 2 });
  });

  it('stays exact when parallel requests of many processes cross a minute boundary', async () => {
    // prepare: six processes, each having seen minute 1; the burst is half in minute 1, half in minute 2
    const merchantId = newMerchantId();
    const perMinute = 5;
    const limit = { perMinute, perDay: ROOMY_DAY };
    const processes = Array.from({ length: 6 }, () => createRateLimitStore(db, tableName));
    const minute1 = at('2031-05-01T10:00:59.000Z');
    const minute2 = at('2031-05-01T10:01:00.000Z');
    await Promise.all(processes.map((p) => p.consume(merchantId, 'reads', { perMinute: 1_000, perDay: ROOMY_DAY }, minute1 - 30_000)));
    // act
    const [inMinute1, inMinute2] = await Promise.all(
      [minute1, minute2].map((now) => Promise.all(Array.from({ length: 3 * perMinute }, (_, i) => processes[i % processes.length]!.consume(merchantId, 'reads', limit, now)))),
    );
    // assess: minute 1 already held 6, over its limit of 5; minute 2 accepts exactly its 5, wherever minute 1's stragglers landed
    const accepted = allowedCount(inMinute1!) + allowedCount(inMinute2!);
    const stored = await counterOf(merchantId, 'reads', minute2);
    expect(stored).toMatchObject({ minute: '2031-05-01T10:01', minuteCount: perMinute });
    expect(accepted).toBe(perMinute);
    expect(stored!.dayCount).toBe(processes.length + perMinute);
  });
});
