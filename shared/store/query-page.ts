/**
 * The one way the stores read a partition: {@link queryPage} (one Query call: a cursor in, a page and the next cursor
 * out), {@link queryAll} (the pages to the end) and, for index entries that hold keys only, {@link itemsOf} (one
 * BatchGetItem per 100 entries). Every Query of the table or its indexes is built here.
 */
import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableDefinition } from './table-definition.ts';

/** An item of the table, or an entry of an index (its table keys, index keys and projection). */
export type Item = Record<string, unknown>;

/** Where a page starts: the LastEvaluatedKey of an earlier page, or the full key (table and index) of an item to start after. */
export type Cursor = Record<string, unknown>;

/** A primary key of the table. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** A condition on the sort key (`<createdAt>#<id>` and the like), added to the partition's. `between` includes both ends. */
export type SortKeyCondition = { between: [string, string] } | { atLeast: string } | { below: string } | { beginsWith: string };

export interface PageQuery {
  /** The secondary index to read; the table itself when absent. */
  index?: 'gsi1' | 'gsi2';
  /** The partition key's value. */
  partition: string;
  sortKey?: SortKeyCondition;
  /** Descending sort key (newest first for `<createdAt>#...` keys); ascending otherwise. */
  newestFirst: boolean;
  /** DynamoDB's `Limit`: at most this many items per Query call. */
  pageSize?: number;
  cursor?: Cursor;
  /**
   * Only these attributes of each item (all of them, or the index's whole projection, by default). A long partition
   * read to its end is sent, parsed and unmarshalled item by item: what a caller leaves out costs it nothing.
   */
  attributes?: readonly string[];
  /** A strongly consistent read (the table only: DynamoDB reads indexes eventually consistent). */
  consistent?: boolean;
}

export interface Page {
  items: Item[];
  /** Where the next page starts; undefined on the last page. */
  nextCursor: Cursor | undefined;
}

/** DynamoDB refuses a BatchGetItem of more keys than this. */
const BATCH_GET_MAX_KEYS = 100;

/**
 * The sort key condition for optional bounds on `<createdAt>#<id>` keys: `from` inclusive, `to` as BETWEEN takes it
 * when both are given (inclusive: the caller drops an entry at `to`), exclusive when alone.
 *
 * @example
 * sortKeyWithin('2026-01-01', undefined) // { atLeast: '2026-01-01' }
 */
export function sortKeyWithin(from: string | undefined, to: string | undefined): SortKeyCondition | undefined {
  if (from !== undefined && to !== undefined) return { between: [from, to] };
  if (from !== undefined) return { atLeast: from };
  if (to !== undefined) return { below: to };
  return undefined;
}

function sortKeyExpression(condition: SortKeyCondition): { expression: string; values: Record<string, string> } {
  if ('between' in condition) return { expression: '#sk BETWEEN :from AND :to', values: { ':from': condition.between[0], ':to': condition.between[1] } };
  if ('atLeast' in condition) return { expression: '#sk >= :from', values: { ':from': condition.atLeast } };
  if ('below' in condition) return { expression: '#sk < :to', values: { ':to': condition.below } };
  return { expression: 'begins_with(#sk, :prefix)', values: { ':prefix': condition.beginsWith } };
}

/** The QueryCommand input of a query: key names from the table definition, placeholders for every name (some, like status, are reserved words). */
function queryInput(tableName: string, query: PageQuery) {
  const keyNames = query.index ? tableDefinition[query.index] : tableDefinition;
  const range = query.sortKey && sortKeyExpression(query.sortKey);
  const projected = query.attributes?.map((name, i) => [`#a${i}`, name] as const);
  return {
    TableName: tableName,
    IndexName: query.index && tableDefinition[query.index].name,
    KeyConditionExpression: range ? `#pk = :pk AND ${range.expression}` : '#pk = :pk',
    ExpressionAttributeNames: { '#pk': keyNames.partitionKey, ...(range && { '#sk': keyNames.sortKey }), ...(projected && Object.fromEntries(projected)) },
    ExpressionAttributeValues: { ':pk': query.partition, ...range?.values },
    ProjectionExpression: projected?.map(([placeholder]) => placeholder).join(', '),
    ScanIndexForward: !query.newestFirst,
    Limit: query.pageSize,
    ExclusiveStartKey: query.cursor,
    ConsistentRead: query.consistent,
  };
}

/**
 * One Query call: the page's items and where the next page starts. For lists a caller pages through (a cursor in
 * its answer) or stops early (its page is full).
 *
 * @example
 * const { items, nextCursor } = await queryPage(db, tableName, { index: 'gsi1', partition, newestFirst: true, pageSize: 50 });
 */
export async function queryPage(db: DynamoDBDocumentClient, tableName: string, query: PageQuery): Promise<Page> {
  const page = await db.send(new QueryCommand(queryInput(tableName, query)));
  return { items: page.Items ?? [], nextCursor: page.LastEvaluatedKey };
}

/**
 * Every item of the partition that `keep` accepts, in key order, page after page ({@link queryPage}) to the last.
 * `keep` runs while reading, so a large partition's rejected items are not held until the end.
 *
 * @example
 * const entries = await queryAll(db, tableName, { index: 'gsi1', partition: keys.merchantCardsPartition(merchantId, mode), newestFirst: true }, (e) => e.status !== 'deleted');
 * const cards = (await itemsOf(db, tableName, entries)).map(cardItems.fromItem);
 */
export async function queryAll(db: DynamoDBDocumentClient, tableName: string, query: PageQuery, keep: (item: Item) => boolean = () => true): Promise<Item[]> {
  const items: Item[] = [];
  let cursor = query.cursor;
  do {
    const page = await queryPage(db, tableName, { ...query, cursor });
    for (const item of page.items) if (keep(item)) items.push(item);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/**
 * How many items one Query call finds in the partition (`Select: COUNT`): nothing is read back but the number.
 * One call, so at most what DynamoDB reads in one (1 MB of entries): for partitions kept small, such as a
 * merchant's webhook endpoints.
 */
export async function countItems(db: DynamoDBDocumentClient, tableName: string, query: Pick<PageQuery, 'index' | 'partition' | 'sortKey' | 'consistent'>): Promise<number> {
  const { Count } = await db.send(new QueryCommand({ ...queryInput(tableName, { ...query, newestFirst: false }), Select: 'COUNT' }));
  return Count ?? 0;
}

/** The table key of an index entry (every index projects both). */
export const itemKeyOf = (entry: Item): ItemKey => ({ pk: entry.pk as string, sk: entry.sk as string });

/** The table items of index entries, in the entries' order ({@link batchGetItems}). */
export const itemsOf = (db: DynamoDBDocumentClient, tableName: string, entries: readonly Item[]): Promise<Item[]> => batchGetItems(db, tableName, entries.map(itemKeyOf));

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
export async function batchGetItems(db: DynamoDBDocumentClient, tableName: string, keys: readonly ItemKey[]): Promise<Item[]> {
  const id = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\u0000${String(key.sk)}`;
  const found = new Map<string, Item>();
  for (let i = 0; i < keys.length; i += BATCH_GET_MAX_KEYS) {
    let pending: Item[] = keys.slice(i, i + BATCH_GET_MAX_KEYS).map(({ pk, sk }) => ({ pk, sk }));
    while (pending.length > 0) {
      const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
      for (const item of Responses?.[tableName] ?? []) found.set(id(item), item);
      pending = (UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined) ?? [];
    }
  }
  return keys.map((key) => found.get(id(key))).filter((item): item is Item => item !== undefined);
}
