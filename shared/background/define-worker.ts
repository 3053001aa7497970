import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { PartialItemFailureResponse } from '@aws-lambda-powertools/batch/types';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { depsFromEnvironment, type Deps, type PartsFactory } from '../deps.ts';
import { queues, workers, type WorkerDefinition, type WorkerId } from '../workers.ts';
import { createParkedRecords, parkedRecordId, replayRequestOf, type ParkedRecord } from './parked-records.ts';

export interface WorkerModule<E, R> {
  /** Builds the worker over the given dependencies (the sandbox's, a test's). */
  build(deps: Deps): (event: E) => Promise<R>;
  /** The Lambda entry point: builds over the container's environment on first call. */
  handler: (event: E) => Promise<R>;
  /** The optional parts the Lambda function builds from its environment (test/unit/lambda-wiring checks them against the manifest). */
  parts: readonly PartsFactory[];
}

export interface WorkerOptions {
  /** The optional parts of Deps the worker uses, as their Lambda factories (see ApiHandlerOptions): only these are bundled. */
  parts?: readonly PartsFactory[];
}

/**
 * Thrown by a worker to report a record as failed on purpose: its retry (or its move to the dead-letter queue) is
 * already arranged. Not an error of the service, so not logged; a worker's own "not yet" errors extend it.
 */
export class NotYetDoneError extends Error {
  override name = 'NotYetDoneError';
}

/**
 * Logs an error the worker did not expect, before it is reported as a failure: without this line a poisoned
 * message would reach the dead-letter queue without a trace of why. Name and message only, never the record or
 * the error's other fields, which may carry request data (the logger masks card numbers and keys in any case).
 */
function logUnexpected(logger: Logger, error: unknown, attributes: Record<string, string> = {}): void {
  if (error instanceof NotYetDoneError) return;
  const { name, message } = error instanceof Error ? error : { name: typeof error, message: String(error) };
  logger.error('Worker failed', { ...attributes, errorName: name, errorMessage: message });
}

/**
 * A background worker of the manifest (shared/workers.ts): the same exports as an API handler (build, handler,
 * parts), so the stack, the sandbox and tests use it the same way. An error it throws is logged, then rethrown.
 *
 * @example
 * export const { build, handler, parts } = defineWorker('handOverSessionExpiry', async (payload: ExpirySchedulePayload, deps) => { ... }, {
 *   parts: [queuesFromEnvironment],
 * });
 */
export function defineWorker<E, R>(workerId: WorkerId, impl: (event: E, deps: Deps) => Promise<R>, { parts = [] }: WorkerOptions = {}): WorkerModule<E, R> {
  let lambda: ((event: E) => Promise<R>) | undefined;
  const build = (deps: Deps) => {
    const logger = deps.logger.createChild({ persistentKeys: { worker: workerId } });
    const scoped = { ...deps, logger };
    return async (event: E) => {
      try {
        return await impl(event, scoped);
      } catch (error) {
        logUnexpected(logger, error);
        throw error;
      }
    };
  };
  return {
    build,
    parts,
    handler: (event) => {
      lambda ??= build(depsFromEnvironment(parts));
      return lambda(event);
    },
  };
}

interface RecordOf {
  [EventType.SQS]: SQSRecord;
  [EventType.DynamoDBStreams]: DynamoDBRecord;
}

/** In-process tries of a stream record per invocation, and the waits between them (a throttle, a brief outage). */
export const STREAM_RECORD_TRIES = 3;
const STREAM_RETRY_DELAYS_MS = [250, 1_000];
/**
 * How old a stream record still failing must be before it is parked. A younger one is reported failed, so the
 * poller (Lambda, or the sandbox's stream reader) tries it again later: an outage of a few minutes (SQS, Scheduler)
 * delivers everything once it passes, with no replay by hand; a record that still fails after that is a poison record.
 * Measured on deps.clock against the stream's own time, so moving the sandbox clock ages records too.
 */
export const PARK_AFTER_MS = 5 * 60_000;

const recordAgeMs = (record: DynamoDBRecord, now: number): number => {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return created === undefined ? Number.POSITIVE_INFINITY : now - created * 1000;
};

const recordIdOf = (record: SQSRecord | DynamoDBRecord) => ('messageId' in record ? record.messageId : (record.eventID ?? record.dynamodb?.SequenceNumber ?? ''));
const errorOf = (error: unknown) => (error instanceof Error ? { name: error.name, message: error.message } : { name: typeof error, message: String(error) });

/** Parks a record the worker gave up on, with its error; says so on the log (an error line) and in the ParkedRecords metric. */
async function park(deps: Deps, workerId: WorkerId, record: SQSRecord | DynamoDBRecord, error: unknown, attempts: number): Promise<void> {
  const source = 'messageId' in record ? 'queue' : 'stream';
  const { trigger } = workers[workerId] as WorkerDefinition;
  const queueUrl = trigger.kind === 'queue' ? process.env[queues[trigger.queue].urlEnv] : undefined;
  const merchantId = 'messageId' in record ? undefined : record.dynamodb?.NewImage?.merchantId?.S;
  const entry: ParkedRecord = {
    id: parkedRecordId(workerId, recordIdOf(record)),
    workerId,
    source,
    record,
    error: errorOf(error),
    attempts,
    parkedAt: new Date().toISOString(),
    ...(merchantId && { merchantId }),
    ...(process.env.AWS_LAMBDA_FUNCTION_NAME && { functionName: process.env.AWS_LAMBDA_FUNCTION_NAME }),
    ...(queueUrl && { queueUrl }),
  };
  await createParkedRecords(deps.db, deps.config.tableName).park(entry);
  deps.metrics.parkedRecord(workerId);
  deps.logger.error('Record parked', { parkedId: entry.id, attempts, errorName: entry.error.name, errorMessage: entry.error.message, replay: `npm run admin -- dead-letters replay --id ${entry.id}` });
}

/**
 * A stream record, tried STREAM_RECORD_TRIES times; still failing, it is reported failed for Lambda (or the sandbox)
 * to retry while younger than PARK_AFTER_MS, then parked: the stream moves on and nothing is lost. A record that
 * could not even be parked (the table unreachable) is reported failed too. A replay request runs the parked record
 * again: removed once it succeeds, parked again with the new error.
 */
async function handleStreamRecord(workerId: WorkerId, process: (record: DynamoDBRecord, deps: Deps) => Promise<void>, record: DynamoDBRecord, deps: Deps): Promise<void> {
  const replay = replayRequestOf(workerId, record);
  if (replay && !(await createParkedRecords(deps.db, deps.config.tableName).claimReplay(replay.id, replay.requestedAt))) return;
  const target = (replay?.inner as DynamoDBRecord | undefined) ?? record;
  for (let tries = 1; ; tries++) {
    try {
      await process(target, deps);
      if (replay) await createParkedRecords(deps.db, deps.config.tableName).remove(replay.id);
      return;
    } catch (error) {
      logUnexpected(deps.logger, error, { recordId: recordIdOf(target) });
      if (tries >= STREAM_RECORD_TRIES) {
        // A replay is of a record already parked once: parked again at once when it still fails.
        if (!replay && recordAgeMs(target, deps.clock.now()) < PARK_AFTER_MS) throw error;
        return park(deps, workerId, target, error, (replay?.attempts ?? 0) + tries);
      }
      await new Promise((resolve) => setTimeout(resolve, STREAM_RETRY_DELAYS_MS[tries - 1]));
    }
  }
}

/**
 * A stream batch as Lambda's stream poller wants it: the records of one item (its key) in stream order, so a
 * session's "completed" change never overtakes its insert; different items side by side. When one fails, the later
 * records of its item are reported failed too (Lambda then retries from the first failure).
 */
async function processStreamBatch(records: DynamoDBRecord[], handle: (record: DynamoDBRecord) => Promise<void>): Promise<PartialItemFailureResponse> {
  const byItem = new Map<string, DynamoDBRecord[]>();
  for (const record of records) {
    const item = JSON.stringify(record.dynamodb?.Keys ?? record.eventID);
    byItem.set(item, [...(byItem.get(item) ?? []), record]);
  }
  const failed: DynamoDBRecord[] = [];
  await Promise.all(
    [...byItem.values()].map(async (ordered) => {
      for (const [index, record] of ordered.entries()) {
        try {
          await handle(record);
        } catch {
          failed.push(...ordered.slice(index));
          return;
        }
      }
    }),
  );
  return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' })) };
}

/**
 * A queue message: a failure comes again through the queue's visibility timeout; on its last receive before the
 * redrive (maxReceiveCount) the message is parked instead, with its error, and deleted from the queue.
 */
async function handleQueueRecord(workerId: WorkerId, process: (record: SQSRecord, deps: Deps) => Promise<void>, record: SQSRecord, deps: Deps): Promise<void> {
  try {
    await process(record, deps);
  } catch (error) {
    logUnexpected(deps.logger, error, { recordId: record.messageId });
    const { trigger } = workers[workerId] as WorkerDefinition;
    const receives = Number(record.attributes?.ApproximateReceiveCount ?? 1);
    const lastReceive = trigger.kind === 'queue' && receives >= queues[trigger.queue].maxReceiveCount;
    // A NotYetDoneError has its retry, or its dead letter, arranged by the worker: it is not a poison record.
    if (!lastReceive || error instanceof NotYetDoneError) throw error;
    await park(deps, workerId, record, error, receives);
  }
}

/**
 * A worker of SQS messages or DynamoDB stream records, each handled on its own: a record that keeps failing is
 * retried, then parked with its error (shared/background/parked-records.ts), never dropped. Stream records of one
 * item are handled in stream order. Unexpected errors are logged with the record's id (SQS message id, stream event
 * id); a NotYetDoneError is not.
 *
 * @example
 * export const { build, handler, parts } = defineRecordWorker('sendWebhooks', EventType.SQS, send, { parts: [queuesFromEnvironment] });
 */
export function defineRecordWorker<T extends keyof RecordOf>(
  workerId: WorkerId,
  eventType: T,
  process: (record: RecordOf[T], deps: Deps) => Promise<void>,
  options: WorkerOptions = {},
): WorkerModule<{ Records: RecordOf[T][] }, PartialItemFailureResponse> {
  return defineWorker(
    workerId,
    (event, deps) =>
      eventType === EventType.DynamoDBStreams
        ? processStreamBatch(event.Records as DynamoDBRecord[], (record) => handleStreamRecord(workerId, process as (r: DynamoDBRecord, d: Deps) => Promise<void>, record, deps))
        : processPartialResponse(event, (record: SQSRecord) => handleQueueRecord(workerId, process as (r: SQSRecord, d: Deps) => Promise<void>, record, deps), new BatchProcessor(EventType.SQS), {
            throwOnFullBatchFailure: false,
          }),
    options,
  );
}
