import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import type { CoreDeps } from '../deps.ts';
import { queues, workers, type WorkerDefinition, type WorkerId } from '../workers.ts';
import { createParkedRecords, parkedRecordId, type ParkedRecord } from './parked-records.ts';
import { errorOf } from './worker-errors.ts';

/** A record's id: the SQS message id, or the stream event id. */
export const recordIdOf = (record: SQSRecord | DynamoDBRecord): string => ('messageId' in record ? record.messageId : (record.eventID ?? record.dynamodb?.SequenceNumber ?? ''));

/** Parks a record the worker gave up on, with its error; says so on the log (an error line) and in the ParkedRecords metric. */
export async function parkRecord(deps: CoreDeps, workerId: WorkerId, record: SQSRecord | DynamoDBRecord, error: unknown, attempts: number): Promise<void> {
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
    parkedAt: new Date(deps.clock.now()).toISOString(),
    ...(merchantId && { merchantId }),
    ...(process.env.AWS_LAMBDA_FUNCTION_NAME && { functionName: process.env.AWS_LAMBDA_FUNCTION_NAME }),
    ...(queueUrl && { queueUrl }),
  };
  await createParkedRecords(deps.db, deps.config.tableName).park(entry);
  deps.metrics.parkedRecord(workerId);
  deps.logger.error('Record parked', { parkedId: entry.id, attempts, errorName: entry.error.name, errorMessage: entry.error.message, replay: `npm run admin -- dead-letters replay --id ${entry.id}` });
}
