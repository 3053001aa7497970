import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../shared/clock.ts';
import { randomToken } from '../../shared/ids.ts';
import { LocalScheduler } from '../../infra/sandbox/local-scheduler.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

describe('LocalScheduler (the sandbox EventBridge Scheduler)', () => {
  const db = testDb();
  const { tableName } = testConnection();
  afterAll(() => db.destroy());
  const mine = `mer_${randomToken(12)}`;
  const owns = (merchantId: string) => merchantId === mine;

  it('fires on the clock, survives a new instance through the table, fires again after a restart until cancelled, and forgets cancelled schedules', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 10));
    const first = new LocalScheduler(db, tableName, clock, owns);
    const name = (n: string) => `test-${mine}-${n}`;
    await first.schedule(name('a'), clock.now() + 30_000, { merchantId: mine, reference: 'cs_a' });
    await first.schedule(name('b'), clock.now() + 60_000, { merchantId: mine, reference: 'cs_b' });
    await first.schedule(name('other'), clock.now() + 1_000, { merchantId: 'mer_someone_else' });
    await first.cancel(name('b'));
    expect(first.nextDueAt()).toBe(clock.now() + 30_000);

    const restarted = new LocalScheduler(db, tableName, clock, owns);
    await restarted.recover();
    expect(restarted.due()).toEqual([]);
    expect(restarted.nextDueAt()).toBe(clock.now() + 30_000);
    clock.advance(30_000);
    expect(restarted.due()).toEqual([{ name: name('a'), payload: { merchantId: mine, reference: 'cs_a' } }]);
    await restarted.fired(name('a'));
    clock.advance(60_000);
    expect(restarted.due()).toEqual([]);

    // Fired but not cancelled (its session has not closed): a restart fires it again, since the queue was in memory.
    const again = new LocalScheduler(db, tableName, clock, owns);
    await again.recover();
    expect(again.due()).toEqual([{ name: name('a'), payload: { merchantId: mine, reference: 'cs_a' } }]);
    await again.cancel(name('a'));

    const afterCancel = new LocalScheduler(db, tableName, clock, owns);
    await afterCancel.recover();
    expect(afterCancel.due()).toEqual([]);
    await first.cancel(name('other'));
  });
});
