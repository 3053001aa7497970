import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../domain/events.ts';
import type { Session } from '../domain/session.ts';
import type { Transaction } from '../domain/transaction.ts';
import { ConditionFailedError, conditional, named } from './conditions.ts';
import { keys } from './keys.ts';
import { outboxPut } from './outbox.ts';
import { sessionEntryItem } from './payment-index.ts';
import type { TransactItem } from './session-store.ts';
import type { TransactionStore } from './transaction-store.ts';

/** One step of a charge attempt: the session as read, the session and transaction as they become, and what it announces. */
export interface AttemptStep {
  before: Session;
  after: Session;
  transaction: Transaction;
  /** True when this step creates the transaction. */
  newTransaction?: boolean;
  /** The attempt's sealed number (its own item): written with this step, or dropped by it. Ending an attempt drops it. */
  sealedCard?: 'store' | 'drop';
  events: EventEnvelope[];
  /** Other items of the same write: a P2C attempt's reference claim, or its release. */
  items?: TransactItem[];
}

/** Session fields a charge attempt changes; the rest of the session is never rewritten by a charge. */
const CHANGED_BY_ATTEMPTS = ['status', 'closedReason', 'closedAt', 'failureCount', 'attemptCount', 'lastTransaction'] as const;

/**
 * The writes of charge attempts. Every step is one TransactWriteItems with the session's version check (named
 * 'session'), so two requests can never both move a session: the loser gets ConditionFailedError.
 *
 * @example
 * const items = charges.stepItems(step);
 * items.push(req.idempotency.commit(response)); // and, for an approval that stores the card, the vault items
 * await charges.commit(items);
 */
export interface ChargeStore {
  /** The step's items in order: session update, transaction, outbox events, the session's payments-list entry. Append more before commit. */
  stepItems(step: AttemptStep): TransactItem[];
  commit(items: TransactItem[]): Promise<void>;
}

export function createChargeStore(db: DynamoDBDocumentClient, tableName: string, transactions: TransactionStore): ChargeStore {
  const sessionUpdate = (before: Session, after: Session, newTransaction: string | null): TransactItem => {
    const names: Record<string, string> = { '#version': 'version' };
    const values: Record<string, unknown> = { ':version': before.version, ':next': before.version + 1 };
    const sets = CHANGED_BY_ATTEMPTS.map((field, i) => {
      names[`#f${i}`] = field;
      values[`:v${i}`] = after[field];
      return `#f${i} = :v${i}`;
    });
    if (newTransaction) {
      // The session's attempts, for listing a session's transactions without an index of their own.
      sets.push('transactionReferences = list_append(if_not_exists(transactionReferences, :none), :txn)');
      values[':none'] = [];
      values[':txn'] = [newTransaction];
    }
    return {
      Update: {
        TableName: tableName,
        Key: keys.session(before.reference),
        UpdateExpression: `SET ${sets.join(', ')}, #version = :next`,
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    };
  };

  return {
    stepItems(step) {
      return [
        named('session', sessionUpdate(step.before, step.after, step.newTransaction ? step.transaction.reference : null)),
        transactions.putItem(step.transaction, { isNew: step.newTransaction ?? false }),
        ...step.events.map((event) => outboxPut(tableName, step.before.merchantId, event)),
        sessionEntryItem(tableName, step.after),
        ...(step.items ?? []),
      ];
    },
    async commit(items) {
      try {
        await conditional(() => db.send(new TransactWriteCommand({ TransactItems: items })), items);
      } catch (error) {
        // Another transaction touching the same session at that instant: the same lost race as a failed version check.
        if (isTransactionConflict(error)) throw new ConditionFailedError(undefined, { cause: error });
        throw error;
      }
    },
  };
}

function isTransactionConflict(error: unknown): boolean {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e.name === 'TransactionConflictException') return true;
  return e.name === 'TransactionCanceledException' && (e.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');
}

/** The session after a step: the fields a charge changes, and the version the write will give it. */
export const advanceSession = (before: Session, changes: Partial<Pick<Session, (typeof CHANGED_BY_ATTEMPTS)[number]>>): Session => ({
  ...before,
  ...changes,
  version: before.version + 1,
});
