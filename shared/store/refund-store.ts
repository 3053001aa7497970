import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterRefund, refundedMinor, type Refund } from '../domain/refund.ts';
import type { TraceEntry, Transaction } from '../domain/transaction.ts';
import { itemDoesNotExist, named } from './conditions.ts';
import { itemMapper } from './item-mapper.ts';
import { keys } from './keys.ts';
import { chargeEntryItem } from './payment-index.ts';
import { queryAll } from './query-page.ts';
import type { TransactItem } from './session-store.ts';

/**
 * Refunds of the single table: one item per refund in its transaction's partition (REFUNDS#txn_...), and the running
 * sums they keep on the transaction item. Every write here is an item of a TransactWriteItems the caller commits
 * (deps.charges.commit), together with its event and stored answer.
 *
 * @example
 * await deps.charges.commit(deps.refunds.reserveItems(transaction, refund, entry));
 */
export interface RefundStore {
  get(transactionReference: string, reference: string): Promise<Refund | null>;
  /** Oldest first. */
  list(transactionReference: string): Promise<Refund[]>;
  /**
   * The refund written pending and its amount taken from what remains of the transaction, in one write: 'refundSums'
   * (the transaction) fails its condition when the transaction is no longer approved or too little remains; 'refund'
   * when the refund exists already.
   */
  reserveItems(transaction: Transaction, refund: Refund, entry: TraceEntry): TransactItem[];
  /**
   * The refund as the bank decided it (or still pending) over the stored refund, which must still be pending
   * ('refund'). A success adds to amountRefundedMinor and sets the transaction's status ('refundSums' checks the
   * running total it was computed from, as read in `transaction`); a failure gives its reservation back.
   */
  settleItems(after: Refund, transaction: Transaction, entries: TraceEntry[]): TransactItem[];
  /**
   * An external refund, succeeded from the start, in one write: it is reserved and counted as refunded (and as
   * refunded externally) at once, under both conditions of reserveItems and settleItems ('refundSums', 'refund').
   */
  recordItems(transaction: Transaction, refund: Refund, entry: TraceEntry): TransactItem[];
}

/** A refund's item, in its transaction's partition. */
export const refundItems = itemMapper({ type: 'refund', keys: (refund: Refund) => keys.refund(refund.transactionReference, refund.reference) });

/** Named condition fragments on the transaction item. */
const isApproved = '#status = :approved';
const noMoreReservedThan = '(attribute_not_exists(#reserved) OR #reserved <= :maxReserved)';
const refundedStill = (before: number) => (before === 0 ? '(attribute_not_exists(#refunded) OR #refunded = :before)' : '#refunded = :before');
const refundStillPending = '#status = :pending';

export function createRefundStore(db: DynamoDBDocumentClient, tableName: string): RefundStore {
  const put = (refund: Refund) => ({ TableName: tableName, Item: refundItems.toItem(refund) });
  const transactionUpdate = (t: Transaction, set: string | null, condition: string | undefined, names: Record<string, string>, values: Record<string, unknown>, entries: TraceEntry[]): TransactItem => ({
    Update: {
      TableName: tableName,
      Key: keys.transaction(t.reference),
      UpdateExpression: `SET ${set ? `${set}, ` : ''}#trace = list_append(#trace, :entries), #updatedAt = :at`,
      ...(condition ? { ConditionExpression: condition } : {}),
      ExpressionAttributeNames: { ...names, '#trace': 'trace', '#updatedAt': 'updatedAt' },
      ExpressionAttributeValues: { ...values, ':entries': entries, ':at': entries.at(-1)!.at },
    },
  });

  return {
    async get(transactionReference, reference) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.refund(transactionReference, reference) }));
      return Item ? refundItems.fromItem(Item) : null;
    },

    async list(transactionReference) {
      const items = await queryAll(db, tableName, { partition: keys.refundsPartition(transactionReference), newestFirst: false, consistent: true });
      return items.map(refundItems.fromItem).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.reference < b.reference ? -1 : 1));
    },

    reserveItems(transaction, refund, entry) {
      return [
        named(
          'refundSums',
          transactionUpdate(
            transaction,
            '#reserved = if_not_exists(#reserved, :zero) + :amount',
            `${isApproved} AND ${noMoreReservedThan}`,
            { '#status': 'status', '#reserved': 'amountReservedMinor' },
            { ':approved': 'approved', ':zero': 0, ':amount': refund.amountMinor, ':maxReserved': transaction.amountMinor - refund.amountMinor },
            [entry],
          ),
        ),
        named('refund', { Put: { ...put(refund), ConditionExpression: itemDoesNotExist } }),
      ];
    },

    settleItems(after, transaction, entries) {
      const refundItem: TransactItem = named('refund', {
        Put: { ...put(after), ConditionExpression: refundStillPending, ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':pending': 'pending' } },
      });
      if (after.status === 'pending') return [refundItem, transactionUpdate(transaction, null, undefined, {}, {}, entries)];
      if (after.status === 'failed') {
        return [refundItem, transactionUpdate(transaction, '#reserved = #reserved - :amount', undefined, { '#reserved': 'amountReservedMinor' }, { ':amount': after.amountMinor }, entries)];
      }
      return [refundItem, ...refundedItems(transaction, after.amountMinor, entries)];
    },

    recordItems(transaction, refund, entry) {
      // Reserved and refunded at once; reserving checks what remains, as reserveItems does.
      const reservation: SumsChange = {
        set: '#reserved = if_not_exists(#reserved, :zero) + :amount, #external = if_not_exists(#external, :zero) + :amount',
        condition: noMoreReservedThan,
        names: { '#reserved': 'amountReservedMinor', '#external': 'amountRefundedExternallyMinor' },
        values: { ':zero': 0, ':amount': refund.amountMinor, ':maxReserved': transaction.amountMinor - refund.amountMinor },
      };
      return [named('refund', { Put: { ...put(refund), ConditionExpression: itemDoesNotExist } }), ...refundedItems(transaction, refund.amountMinor, [entry], reservation)];
    },
  };

  /**
   * A succeeded refund's change to its transaction: the running total and status, checked against the total read in
   * `transaction` (plus `more`: an external refund's reservation); and the payments list row.
   */
  function refundedItems(transaction: Transaction, amountMinor: number, entries: TraceEntry[], more?: SumsChange): TransactItem[] {
    const refundedBefore = refundedMinor(transaction);
    const change = afterRefund(transaction, amountMinor);
    return [
      named(
        'refundSums',
        transactionUpdate(
          transaction,
          `#refunded = :total, #status = :next${more ? `, ${more.set}` : ''}`,
          `${isApproved} AND ${refundedStill(refundedBefore)}${more ? ` AND ${more.condition}` : ''}`,
          { '#status': 'status', '#refunded': 'amountRefundedMinor', ...more?.names },
          { ':approved': 'approved', ':before': refundedBefore, ':total': change.amountRefundedMinor, ':next': change.status, ...more?.values },
          entries,
        ),
      ),
      // A server-to-server charge is a row of the payments list, showing its status (a session's row shows the session's).
      ...(transaction.sessionReference ? [] : [chargeEntryItem(tableName, { ...transaction, status: change.status })]),
    ];
  }
}

/** More of an update to the transaction's sums: SET clauses, a condition, their names and values. */
interface SumsChange {
  set: string;
  condition: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}
