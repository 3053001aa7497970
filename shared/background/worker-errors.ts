import type { Logger } from '@aws-lambda-powertools/logger';

/**
 * Thrown by a worker to report a record as failed on purpose: its retry (or its move to the dead-letter queue) is
 * already arranged. Not an error of the service, so not logged; a worker's own "not yet" errors extend it.
 */
export class NotYetDoneError extends Error {
  override name = 'NotYetDoneError';
}

/** An error's name and message, whatever was thrown. */
export const errorOf = (error: unknown): { name: string; message: string } =>
  error instanceof Error ? { name: error.name, message: error.message } : { name: typeof error, message: String(error) };

/**
 * Logs an error the worker did not expect, before it is reported as a failure: without this line a poisoned
 * message would reach the dead-letter queue without a trace of why. Name and message only, never the record or
 * the error's other fields, which may carry request data (the logger masks card numbers and keys in any case).
 */
export function logUnexpected(logger: Logger, error: unknown, attributes: Record<string, string> = {}): void {
  if (error instanceof NotYetDoneError) return;
  const { name, message } = errorOf(error);
  logger.error('Worker failed', { ...attributes, errorName: name, errorMessage: message });
}
