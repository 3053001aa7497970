import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../shared/clock.ts';
import { ConsumerLoop, type RunOutcome } from '../../infra/sandbox/consumer-loop.ts';

/** A run that waits until the test lets it finish, counting how many overlap. */
function gatedRuns(outcome: RunOutcome = { worked: false }) {
  const state = { runs: 0, running: 0, maxRunning: 0, drained: 0, release: () => {} };
  const run = async (draining: boolean) => {
    state.runs += 1;
    if (draining) state.drained += 1;
    state.running += 1;
    state.maxRunning = Math.max(state.maxRunning, state.running);
    await new Promise<void>((r) => (state.release = r));
    state.running -= 1;
    return outcome;
  };
  return { state, run };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('ConsumerLoop (one trigger of the sandbox)', () => {
  afterEach(() => vi.useRealTimers());

  it('runs when woken, never two runs at once, and folds the wakes during a run into one more run', async () => {
    const { state, run } = gatedRuns();
    const loop = new ConsumerLoop({ run, clock: new ManualClock(), onError: () => {} });
    loop.wake();
    loop.wake();
    await settle();
    expect(state.runs).toBe(1);

    loop.wake();
    loop.wake();
    const drained = loop.runOnce();
    state.release();
    await settle();
    expect(state.runs).toBe(2);
    state.release();
    await settle();
    expect(state.runs).toBe(3);
    expect(state.drained).toBe(1);
    state.release();
    await drained;
    expect(state.maxRunning).toBe(1);
    await loop.stop();
  });

  it('sets a timer for the next due item on the sandbox clock, and runs at once when the clock jumps past it', async () => {
    vi.useFakeTimers();
    const clock = new ManualClock();
    // Two items, due 60 s apart; a run handles those due.
    const pending = [clock.now() + 60_000, clock.now() + 120_000];
    let runs = 0;
    const run = async () => {
      runs += 1;
      while (pending[0] !== undefined && pending[0] <= clock.now()) pending.shift();
      return { worked: false };
    };
    const loop = new ConsumerLoop({ run, nextDueAt: () => pending[0], clock, onError: () => {} });
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);

    // Real time reaching the due time fires the timer (the fake timers stand for real time; the clock moves with them).
    clock.advance(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect([runs, pending.length]).toEqual([2, 1]);

    // The sandbox clock moving past it (POST /__sandbox/clock) fires it without waiting for the real-time timer.
    clock.advance(59_000);
    loop.checkClock();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    clock.advance(1_000);
    loop.checkClock();
    await vi.advanceTimersByTimeAsync(0);
    expect([runs, pending.length]).toEqual([3, 0]);
    await loop.stop();
  });

  it('keeps running while it finds work, counts the productive runs, and comes back when its run asks to', async () => {
    vi.useFakeTimers();
    let left = 3;
    let runs = 0;
    const loop = new ConsumerLoop({
      run: async () => {
        runs += 1;
        return left > 0 ? (left--, { worked: true }) : { worked: false, againInMs: 250 };
      },
      clock: new ManualClock(),
      onError: () => {},
    });
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect([runs, loop.productiveRuns]).toEqual([4, 3]);
    await vi.advanceTimersByTimeAsync(249);
    expect(runs).toBe(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(5);
    await loop.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(5);
  });

  it('reports a failed background run and tries again later; drain() gets the error itself', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    const loop = new ConsumerLoop({
      run: async () => {
        runs += 1;
        throw new Error('DynamoDB Local unreachable');
      },
      clock: new ManualClock(),
      onError: (error) => errors.push(error),
    });
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect([runs, errors.length]).toEqual([2, 2]);
    await expect(loop.runOnce()).rejects.toThrow('DynamoDB Local unreachable');
    expect(errors).toHaveLength(2);
    await loop.stop();
  });

  it('runs outside the async context of whoever woke it, as an invocation of its own', async () => {
    const scope = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const loop = new ConsumerLoop({ run: async () => (seen.push(scope.getStore()), { worked: false }), clock: new ManualClock(), onError: () => {} });
    scope.run('request-1', () => loop.wake());
    await settle();
    expect(seen).toEqual([undefined]);
    await loop.stop();
  });

  it('holds wakes while paused, still runs for drain(), and runs once on resume', async () => {
    let runs = 0;
    const loop = new ConsumerLoop({ run: async () => (runs++, { worked: false }), clock: new ManualClock(), onError: () => {} });
    loop.pause();
    loop.wake();
    loop.wake();
    await settle();
    expect(runs).toBe(0);
    await loop.runOnce();
    expect(runs).toBe(1);
    loop.resume();
    await settle();
    expect(runs).toBe(2);
    await loop.stop();
  });
});
