import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../domain/session-state.ts';
import type { SealedCard } from '../domain/stored-card.ts';
import type { Transaction, TransactionStatus } from '../domain/transaction.ts';
import { itemDoesNotExist } from './conditions.ts';
import { itemMapper } from './item-mapper.ts';
import { keys } from './keys.ts';
import { batchGetItems, itemsOf, queryAll, sortKeyWithin } from './query-page.ts';
import { tableDefinition } from './table-definition.ts';
import type { TransactItem } from './session-store.ts';

export interface TransactionQuery {
  status?: TransactionStatus;
  /** Only the transactions of this session (already checked to belong to the caller). */
  sessionReference?: string;
  /** ISO timestamps, inclusive from, exclusive to. */
  from?: string;
  to?: string;
}

/** Transactions of the single table: one item per attempt, listed per merchant and mode by creation time. */
export interface TransactionStore {
  get(reference: string): Promise<Transaction | null>;
  /** Newest first; `references` narrows the search to those transactions (a session's). */
  list(merchantId: string, mode: Mode, query: TransactionQuery & { references?: string[] }, page?: { page: number; pageSize: number }): Promise<{ items: Transaction[]; total: number }>;
  /**
   * The write of a transaction as it is now, for the transaction that changes it with its session. `replacing`: the
   * version read, which must still be the stored one (same status, same trace length: every change appends to the
   * trace), for a transaction with no session to version-check the write.
   */
  putItem(transaction: Transaction, options?: { isNew?: boolean; replacing?: Transaction }): TransactItem;
  /**
   * Reserves one OTP entry of the attempt with one conditional write, before the bank sees its code: false when
   * `max` are reserved already. `expiresAt` (ms): when the counter may go (no entry is taken after the session's end).
   */
  reserveOtpEntry(reference: string, max: number, expiresAt: number): Promise<boolean>;
  /** The attempt's sealed card number, in its own item (never on the transaction item), or null once dropped. */
  sealedCard(reference: string): Promise<SealedCard | null>;
  /** Writes the attempt's sealed number with a DynamoDB TTL at `expiresAt` (ms), the backstop if no step drops it. */
  sealedCardItem(reference: string, sealed: SealedCard, expiresAt: number): TransactItem;
  dropSealedCardItem(reference: string): TransactItem;
}

/** A transaction's item: its key and its entry in the merchant's list (gsi1). */
export const transactionItems = itemMapper({
  type: 'transaction',
  keys: (t: Transaction) => ({ ...keys.transaction(t.reference), ...keys.merchantTransactions(t.merchantId, t.mode, t.createdAt, t.reference) }),
});

const inRange = (createdAt: string, query: TransactionQuery) =>
  (!query.from || createdAt >= query.from) && (!query.to || createdAt < query.to);

export function createTransactionStore(db: DynamoDBDocumentClient, tableName: string): TransactionStore {
  /** Index entries of the merchant's transactions in the date range and status, newest first. */
  const matchingEntries = (merchantId: string, mode: Mode, query: TransactionQuery) => {
    return queryAll(
      db,
      tableName,
      { index: 'gsi1', partition: keys.merchantTransactionsPartition(merchantId, mode), newestFirst: true, sortKey: sortKeyWithin(query.from, query.to) },
      // gsi1sk is createdAt#reference: BETWEEN includes `to` itself, which the range excludes.
      (entry) => inRange(String(entry.gsi1sk).split('#')[0]!, query) && (!query.status || entry.status === query.status),
    );
  };

  return {
    async get(reference) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.transaction(reference) }));
      return Item ? transactionItems.fromItem(Item) : null;
    },

    async list(merchantId, mode, query, page) {
      if (query.references) {
        // A session's attempts are few: read them all and filter here.
        const all = (await batchGetItems(db, tableName, query.references.map((r) => keys.transaction(r))))
          .map(transactionItems.fromItem)
          .filter((t) => t.merchantId === merchantId && t.mode === mode && inRange(t.createdAt, query) && (!query.status || t.status === query.status))
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
        const slice = page ? all.slice((page.page - 1) * page.pageSize, page.page * page.pageSize) : all;
        return { items: slice, total: all.length };
      }
      const matching = await matchingEntries(merchantId, mode, query);
      const pageEntries = page ? matching.slice((page.page - 1) * page.pageSize, page.page * page.pageSize) : matching;
      const items = await itemsOf(db, tableName, pageEntries);
      return { items: items.map(transactionItems.fromItem), total: matching.length };
    },

    putItem(transaction, { isNew = false, replacing } = {}) {
      const unchanged = replacing && {
        ConditionExpression: '#status = :status AND size(#trace) = :traceLength',
        ExpressionAttributeNames: { '#status': 'status', '#trace': 'trace' },
        ExpressionAttributeValues: { ':status': replacing.status, ':traceLength': replacing.trace.length },
      };
      // The sealed number lives in its own item, with a TTL; an item written before that loses it here.
      const { sealedCard: _sealed, ...stored } = transaction;
      return {
        Put: {
          TableName: tableName,
          Item: transactionItems.toItem(stored),
          ...(isNew ? { ConditionExpression: itemDoesNotExist } : unchanged),
        },
      };
    },

    async reserveOtpEntry(reference, max, expiresAt) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.otpEntries(reference),
            UpdateExpression: 'ADD entries :one SET #type = :type, #ttl = :ttl',
            ConditionExpression: 'attribute_not_exists(entries) OR entries < :max',
            ExpressionAttributeNames: { '#type': 'type', '#ttl': tableDefinition.ttlAttribute },
            ExpressionAttributeValues: { ':one': 1, ':max': max, ':type': 'otp_entries', ':ttl': epochSeconds(expiresAt) },
          }),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) return false;
        throw error;
      }
    },

    async sealedCard(reference) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.sealedCard(reference), ConsistentRead: true }));
      return Item ? (Item.sealedCard as SealedCard) : null;
    },

    sealedCardItem(reference, sealed, expiresAt) {
      return { Put: { TableName: tableName, Item: { ...keys.sealedCard(reference), type: 'sealed_card', sealedCard: sealed, [tableDefinition.ttlAttribute]: epochSeconds(expiresAt) } } };
    },

    dropSealedCardItem(reference) {
      return { Delete: { TableName: tableName, Key: keys.sealedCard(reference) } };
    },
  };
}

const epochSeconds = (ms: number): number => Math.ceil(ms / 1000);
