import type { SQSRecord } from 'aws-lambda';
import type { CoreDeps } from '../deps.ts';
import { queues, workers, type WorkerDefinition, type WorkerId } from '../workers.ts';
import { parkRecord } from './park-record.ts';
import { logUnexpected, NotYetDoneError } from './worker-errors.ts';

/**
 * A queue message: a failure comes again through the queue's visibility timeout; on its last receive before the
 * redrive (maxReceiveCount) the message is parked instead, with its error, and deleted from the queue.
 */
export async function handleQueueRecord<D extends CoreDeps>(workerId: WorkerId, handleRecord: (record: SQSRecord, deps: D) => Promise<void>, record: SQSRecord, deps: D): Promise<void> {
  try {
    await handleRecord(record, deps);
  } catch (error) {
    logUnexpected(deps.logger, error, { recordId: record.messageId });
    const { trigger } = workers[workerId] as WorkerDefinition;
    const receives = Number(record.attributes?.ApproximateReceiveCount ?? 1);
    const lastReceive = trigger.kind === 'queue' && receives >= queues[trigger.queue].maxReceiveCount;
    // A NotYetDoneError has its retry, or its dead letter, arranged by the worker: it is not a poison record.
    if (!lastReceive || error instanceof NotYetDoneError) throw error;
    await parkRecord(deps, workerId, record, error, receives);
  }
}
