import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { policies } from '../../shared/retry/policies.ts';
import { delayMs, retry, type RetryPolicy } from '../../shared/retry/retry.ts';

class Lost extends Error {}

/** A retry run with recorded waits and no real sleeping; `now` moves only by the waits. */
function harness(random: () => number = () => 0.5) {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    options: {
      random,
      now: () => now,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
    },
  };
}

const namedPolicies = Object.entries(policies) as [string, RetryPolicy][];

describe('delayMs', () => {
  it.each(namedPolicies)('%s: every wait lies within the backoff window and under maxDelayMs', (_name, policy) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, random) => {
        const wait = delayMs(policy, attempt, random);
        const full = delayMs({ ...policy, jitter: 'none' }, attempt, 0);
        expect(wait).toBeGreaterThanOrEqual(policy.jitter === 'half' ? Math.min(full / 2, policy.maxDelayMs ?? Infinity) : policy.jitter === 'full' ? 0 : full);
        expect(wait).toBeLessThanOrEqual(Math.min(full, policy.maxDelayMs ?? Infinity));
        if (policy.backoff.kind === 'exponential' && policy.backoff.capMs !== undefined) expect(wait).toBeLessThanOrEqual(policy.backoff.capMs);
      }),
    );
  });

  it('keeps the waits each loop had before it was one helper', () => {
    expect([1, 2, 3].map((n) => delayMs(policies.bankCall, n, 0.9))).toEqual([100, 200, 300]);
    // sdkCall: 500 ms × 2^(n−1) × (0.5 + random/2), at most 8 s.
    expect([1, 2, 3].map((n) => delayMs(policies.sdkCall, n, 1 - Number.EPSILON))).toEqual([500, 1000, 2000].map((ms) => expect.closeTo(ms, 6)));
    expect(delayMs(policies.sdkCall, 1, 0)).toBe(250);
    expect(delayMs(policies.sdkCall, 10, 0)).toBe(8_000);
    // transactionContention: full jitter over min(128, 2^(n+1)).
    expect([1, 2, 5, 6, 40].map((n) => delayMs(policies.transactionContention, n, 0.5))).toEqual([2, 4, 32, 64, 64]);
    expect(delayMs(policies.refundRace, 4, 0.5)).toBe(50);
    expect(delayMs(policies.versionRace, 2, 0.5)).toBe(0);
  });
});

describe('retry', () => {
  it('never tries more than maxAttempts, and throws the last error when they are spent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 20 }), async (maxAttempts, failures) => {
        // prepare
        const policy: RetryPolicy = { maxAttempts, backoff: { kind: 'linear', stepMs: 10 }, jitter: 'full' };
        const { waits, options } = harness();
        let tries = 0;
        // act
        const outcome = await retry(
          policy,
          async (n) => {
            tries++;
            expect(n).toBe(tries);
            if (n <= failures) throw new Lost(`try ${n}`);
            return n;
          },
          { ...options, isRetryable: (e) => e instanceof Lost },
        ).catch((e: unknown) => e);
        // assess
        expect(tries).toBe(Math.min(maxAttempts, failures + 1));
        expect(waits).toHaveLength(tries - 1);
        if (failures >= maxAttempts) expect(outcome).toMatchObject({ message: `try ${maxAttempts}` });
        else expect(outcome).toBe(failures + 1);
      }),
    );
  });

  it('gives up at the first failure past the deadline, whatever the count', async () => {
    // prepare: every wait is the full window (random → 1), 4 + 8 + 16 + 32 ms …
    const { waits, options } = harness(() => 1 - Number.EPSILON);
    let tries = 0;
    // act
    const thrown = await retry({ maxAttempts: 100, backoff: { kind: 'exponential', firstMs: 4, factor: 2 }, jitter: 'full', deadlineMs: 50 }, async () => {
      tries++;
      throw new Lost();
    }, { ...options, isRetryable: () => true }).catch((e: unknown) => e);
    // assess: tries at 0, ~4, ~12, ~28 and ~60 ms; the fifth fails past 50 ms and is the last
    expect(thrown).toBeInstanceOf(Lost);
    expect(tries).toBe(5);
    expect(waits).toHaveLength(4);
  });

  it('throws a failure that is not retryable at once, without waiting', async () => {
    const { waits, options } = harness();
    const other = new Error('not a lost race');
    await expect(retry(policies.transactionContention, () => Promise.reject(other), { ...options, isRetryable: (e) => e instanceof Lost })).rejects.toBe(other);
    expect(waits).toEqual([]);
  });

  it('answers with onExhausted once the tries are spent, after reading again between tries', async () => {
    const { options } = harness();
    const reads: number[] = [];
    const answer = await retry(policies.versionRace, () => Promise.reject(new Lost()), {
      ...options,
      isRetryable: () => true,
      beforeRetry: (_error, failed) => {
        reads.push(failed);
      },
      onExhausted: () => 'busy',
    });
    expect(answer).toBe('busy');
    expect(reads).toEqual([1, 2]);
  });

  it('tries a failed result again and returns the last one when the tries are spent', async () => {
    const { waits, options } = harness();
    const replies = [503, 502, 500];
    const reply = await retry({ ...policies.bankCall, maxAttempts: 3 }, async () => ({ status: replies.shift()! }), {
      ...options,
      isRetryable: () => true,
      retryResult: (r) => r.status >= 500,
    });
    expect(reply).toEqual({ status: 500 });
    expect(waits).toEqual([100, 200]);
  });

  it('waits what the failure asks for (Retry-After) instead of the backoff, never over maxDelayMs', async () => {
    const { waits, options } = harness();
    const asks = [2_000, 60_000];
    let tries = 0;
    await retry({ ...policies.sdkCall, maxAttempts: 3 }, async () => {
      if (tries++ < 2) throw new Lost();
      return 'ok';
    }, { ...options, isRetryable: () => true, requestedDelayMs: () => asks.shift() ?? null });
    expect(waits).toEqual([2_000, 8_000]);
  });
});
