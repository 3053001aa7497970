import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** Named condition fragments, so conditional writes read like sentences. */
export const itemDoesNotExist = 'attribute_not_exists(pk)';
export const itemExists = 'attribute_exists(pk)';

/** A conditional write lost: someone else changed the item first. Carries the item as it was, when DynamoDB sent it. */
export class ConditionFailedError extends Error {
  constructor(readonly existing?: Record<string, unknown>, options?: { cause?: unknown }) {
    super('Conditional write failed', options);
    this.name = 'ConditionFailedError';
  }
}

/**
 * Runs a write and turns a lost condition into ConditionFailedError (with the old item where asked for);
 * every other error passes through.
 */
export async function conditional<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw new ConditionFailedError(error.Item as Record<string, unknown> | undefined, { cause: error });
    }
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        throw new TransactionConditionFailedError(failed, reasons[failed]?.Item, { cause: error });
      }
      if (reasons.some((r) => r.Code === 'TransactionConflict')) throw new TransactionConflictError({ cause: error });
    }
    if ((error as { name?: string }).name === 'TransactionConflictException') throw new TransactionConflictError({ cause: error });
    throw error;
  }
}

/** A transaction was cancelled because the condition of item `index` failed. */
export class TransactionConditionFailedError extends ConditionFailedError {
  constructor(readonly index: number, existingRaw?: unknown, options?: { cause?: unknown }) {
    super(existingRaw as Record<string, unknown> | undefined, options);
    this.name = 'TransactionConditionFailedError';
  }
}

/**
 * Another transaction was writing the same item at that moment, so DynamoDB cancelled ours. For the caller it is
 * the same as a lost condition: read again and decide again (or simply retry, for blind counters).
 */
export class TransactionConflictError extends ConditionFailedError {
  constructor(options?: { cause?: unknown }) {
    super(undefined, options);
    this.name = 'TransactionConflictError';
  }
}
