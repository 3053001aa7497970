import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableDefinition } from './table-definition.ts';

/** An entry of the gsi1 index: the table keys, the index keys and the projected `status` and `expiresAt`. */
export type IndexEntry = Record<string, unknown>;

/** A primary key of the table. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** A condition on gsi1sk (`<createdAt>#<id>` and the like), added to the partition's. */
export type SortKeyCondition = { between: [string, string] } | { atLeast: string } | { below: string };

export interface IndexQuery {
  /** The gsi1pk to read. */
  partition: string;
  /** Descending gsi1sk (newest first for `<createdAt>#...` keys); ascending otherwise. */
  newestFirst: boolean;
  sortKey?: SortKeyCondition;
  /** DynamoDB's `Limit`: at most this many entries per Query call. */
  pageSize?: number;
  /** Where to resume: the LastEvaluatedKey of an earlier page, or the index key of an entry to start after. */
  startKey?: Record<string, unknown>;
  /**
   * Only these attributes of each entry (the whole projection by default). A long partition read to its end is
   * sent, parsed and unmarshalled entry by entry: what a caller leaves out costs it nothing.
   */
  attributes?: readonly string[];
}

/** DynamoDB refuses a BatchGetItem of more keys than this. */
const BATCH_GET_MAX_KEYS = 100;

function sortKeyExpression(condition: SortKeyCondition | undefined): { expression: string; values: Record<string, string> } {
  if (!condition) return { expression: '', values: {} };
  if ('between' in condition) return { expression: ' AND gsi1sk BETWEEN :from AND :to', values: { ':from': condition.between[0], ':to': condition.between[1] } };
  if ('atLeast' in condition) return { expression: ' AND gsi1sk >= :from', values: { ':from': condition.atLeast } };
  return { expression: ' AND gsi1sk < :to', values: { ':to': condition.below } };
}

/**
 * One Query call over gsi1 for a partition: its entries and the key to resume from (undefined on the last page).
 * For callers that stop early (a page of results is full) or read one page only.
 *
 * @example
 * const { entries, lastKey } = await queryIndexPage(db, tableName, { partition, newestFirst: true, pageSize: 50 });
 */
export async function queryIndexPage(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
): Promise<{ entries: IndexEntry[]; lastKey: Record<string, unknown> | undefined }> {
  const range = sortKeyExpression(query.sortKey);
  // Placeholders, since some names (status) are DynamoDB reserved words.
  const projected = query.attributes?.map((name, i) => [`#a${i}`, name] as const);
  const page = await db.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: tableDefinition.gsi1.name,
      KeyConditionExpression: `gsi1pk = :p${range.expression}`,
      ExpressionAttributeValues: { ':p': query.partition, ...range.values },
      ...(projected && { ProjectionExpression: projected.map(([placeholder]) => placeholder).join(', '), ExpressionAttributeNames: Object.fromEntries(projected) }),
      ScanIndexForward: !query.newestFirst,
      Limit: query.pageSize,
      ExclusiveStartKey: query.startKey,
    }),
  );
  return { entries: page.Items ?? [], lastKey: page.LastEvaluatedKey };
}

/**
 * Every entry of a gsi1 partition that `keep` accepts, in index order, following LastEvaluatedKey to the last
 * page. The entries hold only the keys and the projection; fetch the items with {@link batchGetItems}. `keep`
 * runs while scanning, so a large partition's rejected entries are not held until the end.
 *
 * @example
 * const entries = await queryIndexEntries(db, tableName, { partition: keys.merchantCardsPartition(merchantId, mode), newestFirst: true }, (e) => e.status !== 'deleted');
 * const cards = (await batchGetItems(db, tableName, entries.map(itemKeyOf))).map(toCard);
 */
export async function queryIndexEntries(
  db: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
  keep: (entry: IndexEntry) => boolean = () => true,
): Promise<IndexEntry[]> {
  const entries: IndexEntry[] = [];
  let startKey = query.startKey;
  do {
    const page = await queryIndexPage(db, tableName, { ...query, startKey });
    for (const entry of page.entries) if (keep(entry)) entries.push(entry);
    startKey = page.lastKey;
  } while (startKey);
  return entries;
}

/** The table key of an index entry (the index projects both). */
export const itemKeyOf = (entry: IndexEntry): ItemKey => ({ pk: entry.pk as string, sk: entry.sk as string });

/**
 * The items of `keys`, in the order of `keys`; keys with no item are skipped. Reads BatchGetItem calls of up to
 * 100 keys, one after the other, and asks again for the UnprocessedKeys of each until none is left. Reads are
 * eventually consistent, like the index the keys usually come from. The keys must be distinct (DynamoDB refuses
 * a batch that repeats one).
 *
 * @example
 * const items = await batchGetItems(db, tableName, references.map((r) => keys.transaction(r)));
 * // items[i] belongs to the i-th reference that exists
 */
export async function batchGetItems(db: DynamoDBDocumentClient, tableName: string, keys: readonly ItemKey[]): Promise<Record<string, unknown>[]> {
  const id = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\u0000${String(key.sk)}`;
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < keys.length; i += BATCH_GET_MAX_KEYS) {
    let pending: Record<string, unknown>[] = keys.slice(i, i + BATCH_GET_MAX_KEYS).map(({ pk, sk }) => ({ pk, sk }));
    while (pending.length > 0) {
      const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
      for (const item of Responses?.[tableName] ?? []) found.set(id(item), item);
      pending = (UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return keys.map((key) => found.get(id(key))).filter((item): item is Record<string, unknown> => item !== undefined);
}
