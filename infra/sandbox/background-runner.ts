import type { DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Deps } from '../../shared/deps.ts';
import { workers, type QueueName, type StreamFilter, type WorkerDefinition } from '../../shared/workers.ts';
import type { LocalQueue } from './local-queue.ts';
import type { LocalScheduler } from './local-scheduler.ts';
import type { OpenDeliveries } from './open-deliveries.ts';
import type { StreamReader } from './stream-reader.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** How often the sandbox looks at the stream, the schedules and the queues on its own. */
const TICK_MS = 200;
/** A stream record whose worker keeps failing is retried this many times, then logged and dropped. */
const MAX_STREAM_RETRIES = 5;

type Invoke = (event: unknown) => Promise<unknown>;

export interface BackgroundRunner {
  /** Runs the workers until nothing is left to do right now: the stream read to its end, due schedules fired, visible messages handled. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalBackground {
  streams: StreamReader;
  queues: Record<QueueName, LocalQueue>;
  scheduler: LocalScheduler;
  openDeliveries: OpenDeliveries;
  /** Records of other merchants are someone else's: another sandbox on the same table (the test run). */
  owns: (merchantId: string) => boolean;
}

const matches = (filter: StreamFilter, record: DynamoDBRecord) =>
  filter.eventNames.includes(record.eventName as 'INSERT') && (record.dynamodb?.Keys?.pk?.S ?? '').startsWith(filter.pkPrefix);

const merchantOf = (record: DynamoDBRecord) => record.dynamodb?.NewImage?.merchantId?.S;

type Built = { id: string; definition: WorkerDefinition; invoke: Invoke };

/** The first moment after `from` at hourUtc:00 UTC. */
function nextDailyRun(from: number, hourUtc: number): number {
  const today = new Date(from);
  today.setUTCHours(hourUtc, 0, 0, 0);
  return today.getTime() > from ? today.getTime() : today.getTime() + 86_400_000;
}

/**
 * Runs the worker manifest in-process, as Lambda would in AWS: stream workers on the records of the table's
 * stream, queue workers on their queue's messages (failed ones stay hidden until their visibility ends), the
 * schedule worker when a schedule falls due. One step at a time, so drain() and the ticker never overlap.
 */
export async function startBackgroundRunner(deps: Deps, local: LocalBackground): Promise<BackgroundRunner> {
  const built = await Promise.all(
    Object.entries(workers).map(async ([id, definition]: [string, WorkerDefinition]) => {
      const module = (await import(pathToFileURL(resolve(PROJECT_ROOT, definition.entry)).href)) as { build(deps: Deps): Invoke };
      return { id, definition, invoke: module.build(deps) };
    }),
  );
  await local.streams.start();
  await local.scheduler.recover();
  await local.openDeliveries.recover();
  const retries = new Map<DynamoDBRecord, number>();
  // Daily workers run when the sandbox clock crosses their hour, as EventBridge Scheduler's cron would fire them.
  const daily = new Map<Built, number>();
  for (const worker of built) {
    const { trigger } = worker.definition;
    if (trigger.kind === 'daily') daily.set(worker, nextDailyRun(deps.clock.now(), trigger.hourUtc));
  }

  const runStream = async (fresh: DynamoDBRecord[]): Promise<boolean> => {
    const retried = new Map(retries);
    retries.clear();
    const records = [...fresh, ...retried.keys()];
    const mine = records.filter((r) => {
      const merchantId = merchantOf(r);
      return merchantId !== undefined && local.owns(merchantId);
    });
    for (const worker of built) {
      const { trigger } = worker.definition;
      if (trigger.kind !== 'stream') continue;
      const batch = mine.filter((r) => matches(trigger.filter, r));
      if (batch.length === 0) continue;
      const result = (await worker.invoke({ Records: batch } satisfies DynamoDBStreamEvent)) as { batchItemFailures?: { itemIdentifier: string }[] };
      for (const failure of result.batchItemFailures ?? []) {
        const record = batch.find((r) => r.dynamodb?.SequenceNumber === failure.itemIdentifier);
        if (!record) continue;
        const count = (retried.get(record) ?? 0) + 1;
        if (count > MAX_STREAM_RETRIES) {
          deps.logger.error('Stream record dropped after retries', { worker: worker.id, sequenceNumber: failure.itemIdentifier });
        } else {
          retries.set(record, count);
        }
      }
    }
    await local.streams.commit(retries.keys());
    return mine.length > 0;
  };

  const step = async (): Promise<boolean> => {
    let worked = await runStream(await local.streams.poll());
    const handOver = built.find((w) => w.definition.trigger.kind === 'schedule');
    for (const due of local.scheduler.due()) {
      await handOver?.invoke(due.payload);
      await local.scheduler.fired(due.name);
      worked = true;
    }
    for (const [worker, at] of daily) {
      const now = deps.clock.now();
      if (now < at || worker.definition.trigger.kind !== 'daily') continue;
      await worker.invoke({ time: new Date(now).toISOString() });
      daily.set(worker, nextDailyRun(now, worker.definition.trigger.hourUtc));
      worked = true;
    }
    for (const worker of built) {
      const { trigger } = worker.definition;
      if (trigger.kind !== 'queue') continue;
      const queue = local.queues[trigger.queue];
      const records = queue.receive(10);
      if (records.length === 0) continue;
      worked = true;
      const result = (await worker.invoke({ Records: records } satisfies SQSEvent)) as SQSBatchResponse;
      const failed = new Set((result.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      for (const record of records) if (!failed.has(record.messageId)) queue.delete(record.receiptHandle);
    }
    return worked;
  };

  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };

  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    try {
      await serial(step);
    } catch (error) {
      deps.logger.error('Background step failed', { error: error as Error });
    }
    if (!stopped) timer = setTimeout(tick, TICK_MS);
  };
  let timer: NodeJS.Timeout = setTimeout(tick, TICK_MS);

  return {
    async drain() {
      // Work makes more work (an expiry writes an event, the event a delivery): run until two quiet steps in a row.
      for (let quiet = 0; quiet < 2; ) quiet = (await serial(step)) ? 0 : quiet + 1;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await chain;
    },
  };
}
