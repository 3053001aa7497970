import type { PartialItemFailureResponse } from '@aws-lambda-powertools/batch/types';
import type { DynamoDBRecord } from 'aws-lambda';
import type { CoreDeps } from '../deps.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import type { WorkerId } from '../workers.ts';
import { createParkedRecords, replayRequestOf } from './parked-records.ts';
import { parkRecord, recordIdOf } from './park-record.ts';
import { logUnexpected } from './worker-errors.ts';

/** In-process tries of a stream record per invocation (policies.streamRecord: a throttle, a brief outage). */
export const STREAM_RECORD_TRIES = policies.streamRecord.maxAttempts;
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

/**
 * A stream record, tried STREAM_RECORD_TRIES times; still failing, it is reported failed for Lambda (or the sandbox)
 * to retry while younger than PARK_AFTER_MS, then parked: the stream moves on and nothing is lost. A record that
 * could not even be parked (the table unreachable) is reported failed too. A replay request runs the parked record
 * again: removed once it succeeds, parked again with the new error.
 */
export async function handleStreamRecord<D extends CoreDeps>(workerId: WorkerId, handleRecord: (record: DynamoDBRecord, deps: D) => Promise<void>, record: DynamoDBRecord, deps: D): Promise<void> {
  const replay = replayRequestOf(workerId, record);
  if (replay && !(await createParkedRecords(deps.db, deps.config.tableName).claimReplay(replay.id, replay.requestedAt))) return;
  const target = (replay?.inner as DynamoDBRecord | undefined) ?? record;
  await retry(
    policies.streamRecord,
    async () => {
      try {
        await handleRecord(target, deps);
        if (replay) await createParkedRecords(deps.db, deps.config.tableName).remove(replay.id);
      } catch (error) {
        logUnexpected(deps.logger, error, { recordId: recordIdOf(target) });
        throw error;
      }
    },
    {
      isRetryable: () => true,
      onExhausted: async (error) => {
        // A replay is of a record already parked once: parked again at once when it still fails.
        if (!replay && recordAgeMs(target, deps.clock.now()) < PARK_AFTER_MS) throw error;
        await parkRecord(deps, workerId, target, error, (replay?.attempts ?? 0) + STREAM_RECORD_TRIES);
      },
    },
  );
}

/** The item a stream record changed: its records are handled in stream order, one after another. */
export const streamItemOf = (record: DynamoDBRecord): string => JSON.stringify(record.dynamodb?.Keys ?? record.eventID);

/**
 * A stream batch as Lambda's stream poller wants it: the records of one item (its key) in stream order, so a
 * session's "completed" change never overtakes its insert; different items side by side. When one fails, the later
 * records of its item are reported failed too (Lambda then retries from the first failure).
 */
export async function processStreamBatch(records: DynamoDBRecord[], handle: (record: DynamoDBRecord) => Promise<void>): Promise<PartialItemFailureResponse> {
  const byItem = new Map<string, DynamoDBRecord[]>();
  for (const record of records) {
    const item = streamItemOf(record);
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
