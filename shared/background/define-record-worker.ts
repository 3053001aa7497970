import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { PartialItemFailureResponse } from '@aws-lambda-powertools/batch/types';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import type { WiringOf } from '../deps.ts';
import type { workers, WorkerId } from '../workers.ts';
import { defineWorker, type WorkerDeps, type WorkerModule } from './define-worker.ts';
import { handleQueueRecord } from './queue-records.ts';
import { handleStreamRecord, processStreamBatch } from './stream-records.ts';

/** One invocation's records: what a record's handler may scope per-batch work to (`sharedRead`). */
export interface RecordBatch<R> {
  Records: R[];
}

interface RecordOf {
  [EventType.SQS]: SQSRecord;
  [EventType.DynamoDBStreams]: DynamoDBRecord;
}

/**
 * A worker of SQS messages or DynamoDB stream records, each handled on its own: a record that keeps failing is
 * retried, then parked with its error (shared/background/parked-records.ts), never dropped. Stream records of one
 * item are handled in stream order. Unexpected errors are logged with the record's id (SQS message id, stream event
 * id); a NotYetDoneError is not.
 *
 * @example
 * export const { build, handler } = defineRecordWorker('sendWebhooks', EventType.SQS, send, { crypto: cryptoFromEnvironment, ... });
 */
export function defineRecordWorker<K extends WorkerId, T extends keyof RecordOf>(
  workerId: K,
  eventType: T,
  handleRecord: (record: RecordOf[T], deps: WorkerDeps<K>, batch: RecordBatch<RecordOf[T]>) => Promise<void>,
  ...wiring: WiringOf<(typeof workers)[K]>
): WorkerModule<RecordBatch<RecordOf[T]>, PartialItemFailureResponse, WorkerDeps<K>> {
  return defineWorker(
    workerId,
    (event: RecordBatch<RecordOf[T]>, deps) => {
      const handle = (record: RecordOf[T], d: WorkerDeps<K>) => handleRecord(record, d, event);
      return eventType === EventType.DynamoDBStreams
        ? processStreamBatch(event.Records as DynamoDBRecord[], (record) => handleStreamRecord(workerId, handle as (r: DynamoDBRecord, d: WorkerDeps<K>) => Promise<void>, record, deps))
        : processPartialResponse(event, (record: SQSRecord) => handleQueueRecord(workerId, handle as (r: SQSRecord, d: WorkerDeps<K>) => Promise<void>, record, deps), new BatchProcessor(EventType.SQS), {
            throwOnFullBatchFailure: false,
          });
    },
    ...wiring,
  );
}
