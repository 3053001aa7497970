import { BatchGetCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../domain/session-state.ts';
import type { Transaction, TransactionStatus } from '../domain/transaction.ts';
import { itemDoesNotExist } from './conditions.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './session-store.ts';
import { tableDefinition } from './table-definition.ts';

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
  /** The write of a transaction as it is now, for the transaction that changes it with its session. */
  putItem(transaction: Transaction, options?: { isNew: boolean }): TransactItem;
}

const NOT_IN_DOMAIN = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'type'] as const;

function toTransaction(item: Record<string, unknown>): Transaction {
  const copy: Record<string, unknown> = { ...item };
  for (const attribute of NOT_IN_DOMAIN) delete copy[attribute];
  return copy as unknown as Transaction;
}

const inRange = (createdAt: string, query: TransactionQuery) =>
  (!query.from || createdAt >= query.from) && (!query.to || createdAt < query.to);

export function createTransactionStore(db: DynamoDBDocumentClient, tableName: string): TransactionStore {
  const batchGet = async (pks: string[]): Promise<Map<string, Transaction>> => {
    const found = new Map<string, Transaction>();
    for (let i = 0; i < pks.length; i += 100) {
      let pending: Record<string, unknown>[] = pks.slice(i, i + 100).map((pk) => ({ pk, sk: 'TXN' }));
      while (pending.length > 0) {
        const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
        for (const item of Responses?.[tableName] ?? []) found.set(item.pk as string, toTransaction(item));
        pending = (UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
      }
    }
    return found;
  };

  /** Keys of the merchant's transactions in the date range and status, newest first, from the compact index. */
  const matchingKeys = async (merchantId: string, mode: Mode, query: TransactionQuery): Promise<string[]> => {
    const partition = keys.merchantTransactionsPartition(merchantId, mode);
    const range =
      query.from && query.to
        ? { condition: 'gsi1pk = :p AND gsi1sk BETWEEN :from AND :to', values: { ':from': query.from, ':to': query.to } }
        : query.from
          ? { condition: 'gsi1pk = :p AND gsi1sk >= :from', values: { ':from': query.from } }
          : query.to
            ? { condition: 'gsi1pk = :p AND gsi1sk < :to', values: { ':to': query.to } }
            : { condition: 'gsi1pk = :p', values: {} };
    const matching: string[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: tableDefinition.gsi1.name,
          KeyConditionExpression: range.condition,
          ExpressionAttributeValues: { ':p': partition, ...range.values },
          ScanIndexForward: false,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const entry of page.Items ?? []) {
        // gsi1sk is createdAt#reference: BETWEEN includes `to` itself, which the range excludes.
        if (!inRange(String(entry.gsi1sk).split('#')[0]!, query)) continue;
        if (query.status && entry.status !== query.status) continue;
        matching.push(entry.pk as string);
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return matching;
  };

  return {
    async get(reference) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.transaction(reference) }));
      return Item ? toTransaction(Item) : null;
    },

    async list(merchantId, mode, query, page) {
      if (query.references) {
        // A session's attempts are few: read them all and filter here.
        const all = [...(await batchGet(query.references.map((r) => keys.transaction(r).pk))).values()]
          .filter((t) => t.merchantId === merchantId && t.mode === mode && inRange(t.createdAt, query) && (!query.status || t.status === query.status))
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
        const slice = page ? all.slice((page.page - 1) * page.pageSize, page.page * page.pageSize) : all;
        return { items: slice, total: all.length };
      }
      const matching = await matchingKeys(merchantId, mode, query);
      const pageKeys = page ? matching.slice((page.page - 1) * page.pageSize, page.page * page.pageSize) : matching;
      const found = await batchGet(pageKeys);
      return { items: pageKeys.map((pk) => found.get(pk)).filter((t): t is Transaction => t !== undefined), total: matching.length };
    },

    putItem(transaction, { isNew } = { isNew: false }) {
      return {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.transaction(transaction.reference),
            ...keys.merchantTransactions(transaction.merchantId, transaction.mode, transaction.createdAt, transaction.reference),
            type: 'transaction',
            ...transaction,
          },
          ...(isNew ? { ConditionExpression: itemDoesNotExist } : {}),
        },
      };
    },
  };
}
