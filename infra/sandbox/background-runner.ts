import type { DynamoDBRecord, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AllDeps } from '../../shared/deps.ts';
import { createParkedRecords, replayRequestOf } from '../../shared/background/parked-records.ts';
import { streamItemOf } from '../../shared/background/stream-records.ts';
import { STREAM_BATCHES_PER_SHARD, workers, type QueueName, type StreamFilter, type WorkerDefinition, type WorkerId } from '../../shared/workers.ts';
import { keys } from '../../shared/store/keys.ts';
import { ConsumerLoop, type ConsumerLoopOptions } from './consumer-loop.ts';
import type { LocalQueue } from './local-queue.ts';
import type { LocalScheduler } from './local-scheduler.ts';
import type { OpenDeliveries } from './open-deliveries.ts';
import type { StreamReader } from './stream-reader.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * DynamoDB Local's stream has no push, so it is polled: again at once while records keep coming; after an empty
 * poll, FIRST_IDLE_POLL_MS later, the wait doubling up to IDLE_POLL_MS. Writes through the sandbox's own client
 * wake the reader at once (see startBackgroundRunner), so the idle polls only find other processes' writes.
 */
const FIRST_IDLE_POLL_MS = 25;
const IDLE_POLL_MS = 250;
/**
 * A stream record a worker reported failed is retried this long after. The workers park what they cannot handle
 * themselves (shared/background/parked-records.ts), so a failure reported here is one that could not even be parked
 * (DynamoDB Local unreachable): it is kept, never dropped, and tried again every STUCK_RETRY_MS once
 * MAX_STREAM_RETRIES quick tries are spent (drain() then leaves it to the background).
 */
const STREAM_RETRY_MS = 200;
const MAX_STREAM_RETRIES = 5;
const STUCK_RETRY_MS = 5_000;
/** How often the runner looks whether the sandbox clock jumped past a timer (POST /__sandbox/clock): a memory read. */
const CLOCK_CHECK_MS = 50;
/** Batches of one queue handled at once: Lambda's SQS poller starts with five. */
const QUEUE_BATCHES_IN_FLIGHT = 5;

type Invoke = (event: unknown) => Promise<unknown>;

export interface BackgroundRunner {
  /** Runs the workers until nothing is left to do right now: the stream read to its end, due schedules fired, visible messages handled. */
  drain(): Promise<void>;
  /**
   * Holds the workers' background runs (drain() still runs them) until resume(): the benchmark measures a route
   * alone, as in AWS, where the workers are other Lambdas and take no CPU from it.
   */
  pause(): void;
  resume(): void;
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

/** A worker's own records: its trigger's filter, or a replay request of one of its parked records. */
const isFor = (worker: Built, record: DynamoDBRecord) =>
  worker.definition.trigger.kind === 'stream' && (matches(worker.definition.trigger.filter, record) || replayRequestOf(worker.id as WorkerId, record) !== null);

/**
 * A replay request of a parked queue message (`dead-letters replay`): the message goes back on its queue, as SQS's
 * redrive to the source queue would, claimed first so that one sandbox of several on the table sends it once.
 */
async function replayQueueMessage(deps: AllDeps, worker: Built, record: DynamoDBRecord): Promise<boolean> {
  const replay = replayRequestOf(worker.id as WorkerId, record);
  const { trigger } = worker.definition;
  if (!replay || trigger.kind !== 'queue') return false;
  const parked = createParkedRecords(deps.db, deps.config.tableName);
  if (!(await parked.claimReplay(replay.id, replay.requestedAt))) return true;
  await deps.queues[trigger.queue].send(JSON.parse((replay.inner as SQSRecord).body));
  await parked.remove(replay.id);
  deps.logger.info('Parked message queued again', { parkedId: replay.id, queue: trigger.queue });
  return true;
}

type Built = { id: string; definition: WorkerDefinition; invoke: Invoke };

/** The first moment after `from` at hourUtc:00 UTC. */
function nextDailyRun(from: number, hourUtc: number): number {
  const today = new Date(from);
  today.setUTCHours(hourUtc, 0, 0, 0);
  return today.getTime() > from ? today.getTime() : today.getTime() + 86_400_000;
}

/** The partition keys a write command changes (document client input), so its stream has a record of each. */
function writtenKeys(input: Record<string, any>): string[] {
  const pkOf = (item?: { pk?: unknown }) => (typeof item?.pk === 'string' ? [item.pk] : []);
  const transact = (input.TransactItems ?? []) as Record<string, { Item?: { pk?: unknown }; Key?: { pk?: unknown } }>[];
  const batch = Object.values((input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item?: { pk?: unknown } }; DeleteRequest?: { Key?: { pk?: unknown } } }[]>).flat();
  return [
    ...pkOf(input.Item),
    ...pkOf(input.Key),
    ...transact.flatMap((t) => [t.Put, t.Update, t.Delete].flatMap((w) => pkOf(w?.Item ?? w?.Key))),
    ...batch.flatMap((r) => pkOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)),
  ];
}

type Loop = (run: ConsumerLoopOptions['run'], nextDueAt?: () => number | undefined) => ConsumerLoop;

/**
 * The stream workers on the table's stream, as their mappings with STREAM_BATCHES_PER_SHARD in AWS: each poll's
 * records are a batch, handed to every stream worker side by side (each is its own Lambda in AWS), and the next poll
 * goes out while up to that many batches run, so the events behind a slow batch (the planner writing a schedule per
 * new session) are not held back by it. A record whose item has a record in a running batch, or one waiting for its
 * retry, waits for a later batch: a session's INSERT is always handled before its MODIFY. The checkpoint stays before
 * the first record not handled yet.
 */
function streamConsumer(deps: AllDeps, local: LocalBackground, built: Built[], loop: Loop, onError: (error: unknown) => void) {
  const streamWorkers = built.filter((w) => w.definition.trigger.kind === 'stream');
  const retries = new Map<DynamoDBRecord, number>();
  /** Polled, waiting for a batch that has a record of the same item to end. */
  let waiting: DynamoDBRecord[] = [];
  const running = new Map<Promise<void>, DynamoDBRecord[]>();
  let retryAt = 0;
  let stuckRetryAt = 0;
  let idlePollMs = FIRST_IDLE_POLL_MS;
  const retryLater = (record: DynamoDBRecord, count: number) => {
    retries.set(record, count);
    retryAt = Date.now() + STREAM_RETRY_MS;
  };
  const runWorker = async (worker: Built, records: DynamoDBRecord[], retried: Map<DynamoDBRecord, number>) => {
    const batch = records.filter((r) => isFor(worker, r));
    if (batch.length === 0) return;
    const result = (await worker.invoke({ Records: batch } satisfies DynamoDBStreamEvent)) as { batchItemFailures?: { itemIdentifier: string }[] };
    for (const failure of result.batchItemFailures ?? []) {
      const record = batch.find((r) => r.dynamodb?.SequenceNumber === failure.itemIdentifier);
      if (!record) continue;
      const count = (retried.get(record) ?? 0) + 1;
      retryLater(record, count);
      if (count === MAX_STREAM_RETRIES) deps.logger.error('Stream record could not be handled nor parked; kept and retried', { worker: worker.id, sequenceNumber: failure.itemIdentifier });
    }
  };
  const runBatch = async (batch: DynamoDBRecord[], retried: Map<DynamoDBRecord, number>) => {
    try {
      for (const record of batch) for (const worker of built) await replayQueueMessage(deps, worker, record);
      await Promise.all(streamWorkers.map((w) => runWorker(w, batch, retried)));
    } catch (error) {
      // Not handled at all (DynamoDB Local unreachable): the whole batch waits for its retry.
      for (const record of batch) if (!retries.has(record)) retryLater(record, (retried.get(record) ?? 0) + 1);
      throw error;
    }
  };
  const consumer = loop(async (draining) => {
    // drain() waits for the running batches, so what they produce is seen by its next round, and gets their errors.
    if (draining) await Promise.all(running.keys());
    while (running.size >= STREAM_BATCHES_PER_SHARD) await Promise.race(running.keys());
    // drain() retries at once; the background waits STREAM_RETRY_MS between tries, so a short outage does not use them
    // all up. A record past its quick tries waits STUCK_RETRY_MS, and never holds drain() up.
    const due = draining || Date.now() >= retryAt;
    const stuckDue = !draining && Date.now() >= stuckRetryAt;
    const retried = new Map([...retries].filter(([, count]) => (count < MAX_STREAM_RETRIES ? due : stuckDue)));
    if ([...retried.values()].some((count) => count >= MAX_STREAM_RETRIES)) stuckRetryAt = Date.now() + STUCK_RETRY_MS;
    for (const record of retried.keys()) retries.delete(record);
    const polled = await local.streams.poll();
    const mine = polled.records.filter((r) => {
      const merchantId = merchantOf(r);
      // A record naming a merchant, a parked stream record's replay request included, is its owner's alone: another
      // sandbox on the table would replay it without the owner's faults or fixes. A parked queue message names no
      // merchant: its replay is claimed by one sandbox (replayQueueMessage).
      if (merchantId !== undefined) return local.owns(merchantId);
      return built.some((w) => replayRequestOf(w.id as WorkerId, r) !== null);
    });
    // Most records are no worker's (rate counters, idempotency keys, sign-ins): only the others count as work.
    const handled = mine.filter((r) => built.some((w) => isFor(w, r) || replayRequestOf(w.id as WorkerId, r) !== null));
    // Oldest first: a retried record before the later records of its item.
    const candidates = [...retried.keys(), ...waiting, ...handled];
    const busy = new Set([...[...running.values()].flat(), ...retries.keys()].map(streamItemOf));
    const batch = candidates.filter((r) => !busy.has(streamItemOf(r)));
    waiting = candidates.filter((r) => busy.has(streamItemOf(r)));
    if (batch.length > 0) {
      const run = runBatch(batch, retried);
      const tracked: Promise<void> = run
        .catch((error: unknown) => (draining ? undefined : onError(error)))
        .finally(() => {
          running.delete(tracked);
          // Its records' items are free again, and the checkpoint may move past them.
          consumer.wake();
        });
      running.set(tracked, batch);
      if (draining) await run;
    }
    await local.streams.commit(handled, [...[...running.values()].flat(), ...waiting, ...retries.keys()]);
    if (batch.length > 0 || polled.more) {
      idlePollMs = FIRST_IDLE_POLL_MS;
      return { worked: true };
    }
    const nextRetry = [...retries.values()].some((count) => count < MAX_STREAM_RETRIES) ? retryAt : stuckRetryAt;
    const againInMs = retries.size > 0 ? Math.min(idlePollMs, Math.max(0, nextRetry - Date.now())) : idlePollMs;
    idlePollMs = Math.min(IDLE_POLL_MS, idlePollMs * 2);
    return { worked: false, againInMs };
  });
  return { consumer, settled: () => Promise.all(running.keys()) };
}

/**
 * A queue's worker, woken by every send and by its next message's visibility. SQS promises no order, so, as Lambda
 * does, several batches run side by side: a slow one holds back no other.
 */
function queueConsumer(queue: LocalQueue, worker: Built, loop: Loop, onError: (error: unknown) => void) {
  const inFlight = new Set<Promise<void>>();
  const handle = async (records: SQSRecord[]) => {
    const result = (await worker.invoke({ Records: records } satisfies SQSEvent)) as SQSBatchResponse;
    const failed = new Set((result.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    for (const record of records) if (!failed.has(record.messageId)) queue.delete(record.receiptHandle);
  };
  const consumer = loop(
    async (draining) => {
      // drain() waits for every batch, so what they produce is seen by its next round, and gets their errors.
      if (draining) await Promise.all(inFlight);
      while (inFlight.size >= QUEUE_BATCHES_IN_FLIGHT) await Promise.race(inFlight);
      const records = queue.receive(10);
      if (records.length === 0) return { worked: false };
      const batch = handle(records);
      const tracked: Promise<void> = batch.catch((error: unknown) => (draining ? undefined : onError(error))).finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      if (draining) await batch;
      return { worked: true };
    },
    () => queue.nextVisibleAt(),
  );
  queue.watch(() => consumer.wake());
  return { consumer, settled: () => Promise.all(inFlight) };
}

/** The schedule worker (the hand-over) for each schedule due on the sandbox clock, with a timer for the next one. */
function scheduleConsumer(local: LocalBackground, built: Built[], loop: Loop): ConsumerLoop {
  const handOver = built.find((w) => w.definition.trigger.kind === 'schedule');
  const consumer = loop(
    async () => {
      const due = local.scheduler.due();
      // Side by side, as EventBridge Scheduler fires each schedule on its own: a burst of expiries does not queue.
      await Promise.all(
        due.map(async ({ name, payload }) => {
          await handOver?.invoke(payload);
          await local.scheduler.fired(name);
        }),
      );
      return { worked: due.length > 0 };
    },
    () => local.scheduler.nextDueAt(),
  );
  local.scheduler.watch(() => consumer.wake());
  return consumer;
}

/** Daily workers run when the sandbox clock crosses their hour, as EventBridge Scheduler's cron would fire them. */
function dailyConsumer(deps: AllDeps, built: Built[], loop: Loop): ConsumerLoop {
  const daily = new Map<Built, number>();
  for (const worker of built) {
    const { trigger } = worker.definition;
    if (trigger.kind === 'daily') daily.set(worker, nextDailyRun(deps.clock.now(), trigger.hourUtc));
  }
  return loop(
    async () => {
      let worked = false;
      for (const [worker, at] of daily) {
        const now = deps.clock.now();
        if (now < at || worker.definition.trigger.kind !== 'daily') continue;
        await worker.invoke({ time: new Date(now).toISOString() });
        daily.set(worker, nextDailyRun(now, worker.definition.trigger.hourUtc));
        worked = true;
      }
      return { worked };
    },
    () => (daily.size > 0 ? Math.min(...daily.values()) : undefined),
  );
}

/**
 * Runs the worker manifest in-process, as Lambda would in AWS, each trigger on its own ConsumerLoop: a write or a
 * send wakes its consumer at once, a timer is set for the next delayed message or schedule, and a slow stage holds
 * back only itself. drain() runs them all until there is nothing left to do.
 */
export async function startBackgroundRunner(deps: AllDeps, local: LocalBackground): Promise<BackgroundRunner> {
  const built = await Promise.all(
    Object.entries(workers).map(async ([id, definition]: [string, WorkerDefinition]) => {
      const module = (await import(pathToFileURL(resolve(PROJECT_ROOT, definition.entry)).href)) as { build(deps: AllDeps): Invoke };
      return { id, definition, invoke: module.build(deps) };
    }),
  );
  await local.streams.start();
  await local.scheduler.recover();
  await local.openDeliveries.recover();
  const onError = (error: unknown) => deps.logger.error('Background step failed', { error: error as Error });
  const loop: Loop = (run, nextDueAt) => new ConsumerLoop({ run, nextDueAt, clock: deps.clock, onError });

  const { consumer: stream, settled: streamSettled } = streamConsumer(deps, local, built, loop, onError);
  // As the stream trigger in AWS, a write through the sandbox's own client that a worker takes is read at once;
  // other writers (the admin CLI, another sandbox on the table) are found by the idle polls. Writes no worker takes
  // (rate counters, idempotency keys, checkpoints) wake nothing: a poll after each would double the table's traffic.
  const takenPrefixes = built.flatMap((w) => [keys.parkedRecordPrefix(w.id), ...(w.definition.trigger.kind === 'stream' ? [w.definition.trigger.filter.pkPrefix] : [])]);
  deps.db.middlewareStack.add(
    (next) => async (args) => {
      const output = await next(args);
      if (writtenKeys(args.input as Record<string, any>).some((pk) => takenPrefixes.some((prefix) => pk.startsWith(prefix)))) stream.wake();
      return output;
    },
    { step: 'initialize', name: 'wakeLocalStreamReader' },
  );
  const queues = built.flatMap((worker) => (worker.definition.trigger.kind === 'queue' ? [queueConsumer(local.queues[worker.definition.trigger.queue], worker, loop, onError)] : []));
  const loops = [stream, scheduleConsumer(local, built, loop), dailyConsumer(deps, built, loop), ...queues.map((q) => q.consumer)];

  const clockCheck = setInterval(() => loops.forEach((l) => l.checkClock()), CLOCK_CHECK_MS);
  loops.forEach((l) => l.wake());
  const productiveRuns = () => loops.reduce((sum, l) => sum + l.productiveRuns, 0);

  return {
    async drain() {
      // Work makes more work (an expiry writes an event, the event a delivery), here or in a background run: go
      // round every loop until two rounds in a row in which none handled anything.
      for (let quiet = 0; quiet < 2; ) {
        const before = productiveRuns();
        for (const l of loops) await l.runOnce();
        quiet = productiveRuns() === before ? quiet + 1 : 0;
      }
    },
    pause: () => loops.forEach((l) => l.pause()),
    resume: () => loops.forEach((l) => l.resume()),
    async stop() {
      clearInterval(clockCheck);
      await Promise.all(loops.map((l) => l.stop()));
      await Promise.all([streamSettled(), ...queues.map((q) => q.settled())]);
    },
  };
}
