import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRateLimited } from '../support/assertions.ts';
import { alignToNextMinute, ensureRoomInUtcDay, secondsToUtcMidnight } from '../support/clock.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import type { OperationClass, RateLimit } from '../../shared/domain/merchant.ts';
import { rateWindows } from '../../shared/domain/rate-limits.ts';
import { keys as tableKeys } from '../../shared/store/keys.ts';

const VALID = { amountMinor: 1050, currency: 'VES' } as const;

describe('Rate limits', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const withLimits = (rateLimits: Partial<Record<OperationClass, RateLimit>>) => sandbox.newMerchant({ changes: { rateLimits } });
  const create = (key: string) => sandbox.request('POST', '/v1/sessions', { key, body: VALID });
  const list = (key: string) => sandbox.request('GET', '/v1/sessions', { key });
  const statuses = (answers: TestResponse[]) => answers.map((r) => r.status);

  /**
   * Sets a merchant's counter for the current window directly, to reach the spec's default limits without
   * thousands of requests. The counter is the day's item the rate-limit store updates: a full minute is the
   * current minute's count (the day holding as many), a full day the day's count.
   */
  async function presetCounter(merchantId: string, operationClass: OperationClass, window: 'minute' | 'day', count: number): Promise<void> {
    const w = rateWindows(sandbox.clock.now());
    const counts = window === 'minute' ? { minute: w.minute, minuteCount: count, dayCount: count } : { dayCount: count };
    await sandbox.deps.db.send(
      new PutCommand({ TableName: sandbox.deps.config.tableName, Item: { ...tableKeys.rateWindow(merchantId, operationClass, w.day), ...counts, ttl: w.dayExpiresAt } }),
    );
  }

  describe('per UTC minute', () => {
    it('allows the merchant\'s perMinute, then answers 429 exactly as the spec gives it, with Retry-After up to the next minute', async () => {
      const { keys } = await withLimits({ sessions: { perMinute: 3, perDay: 1000 } });
      alignToNextMinute(sandbox);
      const allowed = [await create(keys.secretTest), await create(keys.secretTest), await create(keys.secretTest)];
      expect(statuses(allowed)).toEqual([201, 201, 201]);

      const refused = await create(keys.secretTest);
      const retryAfter = expectRateLimited(refused);
      expect(retryAfter).toBeGreaterThanOrEqual(50);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((await list(keys.secretTest)).body.total).toBe(3);

      sandbox.advance(retryAfter);
      expect((await create(keys.secretTest)).status).toBe(201);
    });

    it('does not count refused requests: the next minute allows the full limit again', async () => {
      const { keys } = await withLimits({ sessions: { perMinute: 2, perDay: 1000 } });
      alignToNextMinute(sandbox);
      const first = [];
      for (let i = 0; i < 5; i++) first.push(await create(keys.secretTest));
      expect(statuses(first)).toEqual([201, 201, 429, 429, 429]);

      alignToNextMinute(sandbox);
      const second = [];
      for (let i = 0; i < 3; i++) second.push(await create(keys.secretTest));
      expect(statuses(second)).toEqual([201, 201, 429]);
    });

    it('applies to reads: GET of a session and the list share the reads limit', async () => {
      const { keys } = await withLimits({ reads: { perMinute: 2, perDay: 1000 } });
      alignToNextMinute(sandbox);
      const created = await create(keys.secretTest);
      expect((await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest })).status).toBe(200);
      expect((await list(keys.secretTest)).status).toBe(200);
      expectRateLimited(await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.restrictedTest }));
      expectRateLimited(await list(keys.secretTest));
    });
  });

  describe('per UTC day', () => {
    it('allows the merchant\'s perDay across minutes, then answers 429 with Retry-After up to UTC midnight', async () => {
      const { keys } = await withLimits({ sessions: { perMinute: 100, perDay: 3 } });
      ensureRoomInUtcDay(sandbox);
      for (let i = 0; i < 3; i++) {
        alignToNextMinute(sandbox);
        expect((await create(keys.secretTest)).status).toBe(201);
      }
      alignToNextMinute(sandbox);
      const retryAfter = expectRateLimited(await create(keys.secretTest));
      expect(Math.abs(retryAfter - secondsToUtcMidnight(sandbox))).toBeLessThanOrEqual(2);
      expect(retryAfter).toBeGreaterThan(60);

      sandbox.advance(retryAfter);
      expect((await create(keys.secretTest)).status).toBe(201);
    });

    it('does not count requests refused by the minute window against the day', async () => {
      const { keys } = await withLimits({ sessions: { perMinute: 2, perDay: 3 } });
      ensureRoomInUtcDay(sandbox);
      alignToNextMinute(sandbox);
      const minute1 = [];
      for (let i = 0; i < 4; i++) minute1.push(await create(keys.secretTest));
      expect(statuses(minute1)).toEqual([201, 201, 429, 429]);

      alignToNextMinute(sandbox);
      expect((await create(keys.secretTest)).status).toBe(201);
      const retryAfter = expectRateLimited(await create(keys.secretTest));
      expect(retryAfter).toBeGreaterThan(60);
    });
  });

  describe('the spec\'s defaults', () => {
    it.each<[string, OperationClass, 'minute' | 'day', number, (key: string) => Promise<TestResponse>]>([
      ['sessions: 240 per minute', 'sessions', 'minute', 240, (key) => create(key)],
      ['sessions: 20,000 per day', 'sessions', 'day', 20_000, (key) => create(key)],
      ['reads: 600 per minute', 'reads', 'minute', 600, (key) => list(key)],
      ['reads: 100,000 per day', 'reads', 'day', 100_000, (key) => list(key)],
    ])('%s for a merchant without overrides', async (_label, operationClass, window, limit, send) => {
      const { merchant, keys } = await sandbox.newMerchant();
      ensureRoomInUtcDay(sandbox);
      alignToNextMinute(sandbox);
      await presetCounter(merchant.id, operationClass, window, limit - 1);
      expect((await send(keys.secretTest)).status).toBeLessThan(300);
      expectRateLimited(await send(keys.secretTest));
    });
  });

  describe('scope', () => {
    it('keeps the classes apart: exhausted sessions still leave reads, and exhausted reads still leave sessions', async () => {
      const { keys } = await withLimits({ sessions: { perMinute: 1, perDay: 1000 }, reads: { perMinute: 1, perDay: 1000 } });
      alignToNextMinute(sandbox);
      const created = await create(keys.secretTest);
      expect(created.status).toBe(201);
      expectRateLimited(await create(keys.secretTest));
      expect((await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest })).status).toBe(200);
      expectRateLimited(await list(keys.secretTest));
    });

    it('is per merchant, not per key: the test and live keys share it, another merchant is untouched', async () => {
      const limits = { sessions: { perMinute: 2, perDay: 1000 } };
      const { keys } = await withLimits(limits);
      const { keys: other } = await withLimits(limits);
      alignToNextMinute(sandbox);
      expect((await create(keys.secretTest)).status).toBe(201);
      expect((await create(keys.secretLive)).status).toBe(201);
      expectRateLimited(await create(keys.secretTest));
      expectRateLimited(await create(keys.secretLive));
      expect((await create(other.secretTest)).status).toBe(201);
    });

    it('does not limit expire, which the spec puts in no operation class', async () => {
      const { keys } = await withLimits({ sessions: { perMinute: 1, perDay: 1 }, reads: { perMinute: 1, perDay: 1 } });
      alignToNextMinute(sandbox);
      const created = await create(keys.secretTest);
      for (let i = 0; i < 3; i++) {
        expect((await sandbox.request('POST', `/v1/sessions/${created.body.reference}/expire`, { key: keys.secretTest })).status).toBe(200);
      }
    });
  });

  describe('under concurrency', () => {
    it('with perMinute 10, 30 parallel creates give exactly 10 x 201 and 20 x 429', async () => {
      const { keys } = await withLimits({ sessions: { perMinute: 10, perDay: 1000 } });
      alignToNextMinute(sandbox);
      const answers = await Promise.all(Array.from({ length: 30 }, () => create(keys.secretTest)));
      const byStatus = answers.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
      expect(byStatus, answers.filter((r) => r.status !== 201 && r.status !== 429).map((r) => r.text).join('\n')).toEqual({ 201: 10, 429: 20 });
      for (const res of answers.filter((r) => r.status === 429)) expectRateLimited(res);
      expect((await list(keys.secretTest)).body.total).toBe(10);
    });
  });
});
