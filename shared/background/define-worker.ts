import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { PartialItemFailureResponse } from '@aws-lambda-powertools/batch/types';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBRecord, SQSRecord } from 'aws-lambda';
import { depsFromEnvironment, type Deps, type PartsFactory } from '../deps.ts';
import type { WorkerId } from '../workers.ts';

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

/**
 * A worker of SQS messages or DynamoDB stream records, processed one by one: those whose `process` throws are
 * reported back as failed (partial batch response) and come again, the others are done. Unexpected errors are
 * logged with the record's id (SQS message id, stream event id); a NotYetDoneError is not.
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
  const processOne = (deps: Deps) => async (record: RecordOf[T]) => {
    try {
      await process(record, deps);
    } catch (error) {
      logUnexpected(deps.logger, error, { recordId: 'messageId' in record ? record.messageId : (record.eventID ?? '') });
      throw error;
    }
  };
  return defineWorker(workerId, (event, deps) => processPartialResponse(event, processOne(deps), new BatchProcessor(eventType), { throwOnFullBatchFailure: false }), options);
}
