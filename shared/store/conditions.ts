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
 * The conditions of a transaction a caller may want to tell apart when it is cancelled. A name, not a position: items
 * can be added, dropped or reordered without changing what a caller decides.
 */
export type ConditionName =
  /** The session's version check, on every step of a checkout attempt. */
  | 'session'
  /** A server-to-server charge still as it was read (status, trace length). */
  | 'transaction'
  /** A stored card still at the version that was read. */
  | 'card'
  /** The first write that stores an approved card: a simultaneous approval of the same card makes it fail. */
  | 'cardMatch'
  /** A pago móvil reference claimed for a session (it must be free), or released by the attempt holding it. */
  | 'pagoMovilClaim'
  /** A session's payment keys still under their bound (PAYMENT_KEYS_PER_SESSION). */
  | 'sessionKeys'
  /** A phone's payment keys of the day still under their bound (PAYMENT_KEYS_PER_PHONE_PER_DAY). */
  | 'phoneKeys'
  /** A refund that must still be pending, or must not exist yet. */
  | 'refund'
  /** The transaction's refunded and reserved sums, still what the refund was decided from. */
  | 'refundSums';

const conditionName = Symbol('conditionName');

/**
 * Names a transaction item's condition: a cancelled transaction then says which one failed
 * (TransactionConditionFailedError.failed). The name is a hidden symbol key: the SDK never sends it, and the item
 * compares equal to the unnamed one.
 *
 * @example
 * const items = [named('session', sessionUpdate), outboxPut(tableName, merchantId, event)];
 * await conditional(() => db.send(new TransactWriteCommand({ TransactItems: items })), items);
 * // catch: if (error instanceof TransactionConditionFailedError && error.failed === 'session') …
 */
export function named<I extends object>(name: ConditionName, item: I): I {
  return Object.defineProperty({ ...item }, conditionName, { value: name, enumerable: false });
}

const nameOf = (item: object | undefined): ConditionName | null => (item as { [conditionName]?: ConditionName } | undefined)?.[conditionName] ?? null;

/**
 * Runs a write and turns a lost condition into ConditionFailedError (with the old item where asked for);
 * every other error passes through. `items`: the transaction's items, so a failed one is reported by its name.
 */
export async function conditional<T>(write: () => Promise<T>, items: readonly object[] = []): Promise<T> {
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
        throw new TransactionConditionFailedError(nameOf(items[failed]), failed, reasons[failed]?.Item, { cause: error });
      }
      if (reasons.some((r) => r.Code === 'TransactionConflict')) throw new TransactionConflictError({ cause: error });
    }
    if ((error as { name?: string }).name === 'TransactionConflictException') throw new TransactionConflictError({ cause: error });
    throw error;
  }
}

/**
 * A transaction was cancelled because a condition failed: `failed` names it (null for an unnamed item). Decide on
 * the name; `index`, the item's position, is for logs only.
 */
export class TransactionConditionFailedError extends ConditionFailedError {
  constructor(readonly failed: ConditionName | null, readonly index: number, existingRaw?: unknown, options?: { cause?: unknown }) {
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
