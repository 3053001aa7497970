import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../shared/clock.ts';
import { LocalQueue } from '../../infra/sandbox/local-queue.ts';

describe('LocalQueue (the sandbox SQS)', () => {
  const definition = { visibilityTimeoutSeconds: 60, maxReceiveCount: 3, urlEnv: 'X', summary: '' };

  it('hides delayed messages until the clock reaches them', async () => {
    const clock = new ManualClock();
    const queue = new LocalQueue('q', definition, clock);
    await queue.send({ n: 1 }, { delaySeconds: 10 });
    expect(queue.receive()).toEqual([]);
    clock.advance(10_000);
    expect(queue.receive().map((r) => JSON.parse(r.body))).toEqual([{ n: 1 }]);
  });

  it('hides a received message for its visibility timeout, or as long as the consumer says', async () => {
    const clock = new ManualClock();
    const queue = new LocalQueue('q', definition, clock);
    await queue.send({ n: 1 });
    const [first] = queue.receive();
    clock.advance(59_000);
    expect(queue.receive()).toEqual([]);
    clock.advance(1_000);
    const [second] = queue.receive();
    expect(second?.attributes.ApproximateReceiveCount).toBe('2');
    await queue.changeVisibility(second!.receiptHandle, 5);
    clock.advance(5_000);
    expect(queue.receive()).toHaveLength(1);
    expect(first?.messageId).toBe(second?.messageId);
  });

  it('moves a message to the dead letters once it was received maxReceiveCount times, and deletes on request', async () => {
    const clock = new ManualClock();
    const queue = new LocalQueue('q', definition, clock);
    await queue.send({ n: 'dead' });
    await queue.send({ n: 'done' });
    for (let i = 0; i < 3; i++) {
      const records = queue.receive();
      for (const r of records) if (JSON.parse(r.body).n === 'done') queue.delete(r.receiptHandle);
      clock.advance(60_000);
    }
    expect(queue.receive()).toEqual([]);
    expect(queue.deadLetters.map((m) => [JSON.parse(m.body).n, m.receiveCount])).toEqual([['dead', 3]]);
    expect(queue.depth).toBe(0);
  });
  it('says when its next message becomes visible, and tells its watcher of every message added or hidden anew', async () => {
    const clock = new ManualClock();
    const queue = new LocalQueue('q', definition, clock);
    let changes = 0;
    queue.watch(() => changes++);
    expect(queue.nextVisibleAt()).toBeUndefined();
    await queue.send({ n: 1 }, { delaySeconds: 30 });
    queue.restore({ n: 2 }, { visibleAt: clock.now() + 10_000, receiveCount: 1 });
    expect([queue.nextVisibleAt(), changes]).toEqual([clock.now() + 10_000, 2]);

    clock.advance(10_000);
    const [record] = queue.receive();
    expect(queue.nextVisibleAt()).toBe(clock.now() + 20_000);
    await queue.changeVisibility(record!.receiptHandle, 5);
    expect([queue.nextVisibleAt(), changes]).toEqual([clock.now() + 5_000, 3]);
  });
});
