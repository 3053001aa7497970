import { BatchGetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { randomToken } from '../../shared/ids.ts';
import { batchGetItems, countItems, itemKeyOf, itemsOf, queryAll, queryPage, sortKeyWithin, type ItemKey } from '../../shared/store/query-page.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { tableName } = testConnection();
const db = testDb();
afterAll(() => db.destroy());

const SK = 'INDEX_QUERY_TEST';

/** A partition of its own for each test: `count` items whose gsi1sk sorts in creation order (`k000`, `k001`, ...). */
async function aPartition(count: number): Promise<{ partition: string; keys: ItemKey[] }> {
  const partition = `INDEX_QUERY_TEST#${randomToken(10)}`;
  const keys = Array.from({ length: count }, (_, i) => ({ pk: `${partition}#${i}`, sk: SK }));
  // A few at a time: fast, without opening hundreds of connections at once.
  for (let i = 0; i < count; i += 25) {
    await Promise.all(
      keys.slice(i, i + 25).map((key, j) =>
        db.send(new PutCommand({ TableName: tableName, Item: { ...key, gsi1pk: partition, gsi1sk: sortKeyOf(i + j), status: (i + j) % 3 === 0 ? 'odd' : 'even', n: i + j } })),
      ),
    );
  }
  return { partition, keys };
}

const sortKeyOf = (i: number) => `k${String(i).padStart(3, '0')}`;
const numbersOf = (items: Record<string, unknown>[]) => items.map((item) => item.n);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** Watches the commands of one kind that go through the client. */
function countCalls<C>(client: DynamoDBDocumentClient, command: new (...args: never[]) => C) {
  const send = vi.spyOn(client, 'send');
  const calls = () => send.mock.calls.map(([c]) => c as unknown).filter((c) => c instanceof command) as C[];
  return { calls, count: () => calls().length, restore: () => send.mockRestore() };
}

describe('queryAll over an index', () => {
  it('follows LastEvaluatedKey over several Query pages, in index order both ways', async () => {
    // prepare
    const { partition } = await aPartition(7);
    const queries = countCalls(db, QueryCommand);
    try {
      // act
      const oldestFirst = await queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: false, pageSize: 2 });
      const newestFirst = await queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: true, pageSize: 2 });
      // assess
      expect(oldestFirst.map((e) => e.gsi1sk)).toEqual(range(0, 7).map(sortKeyOf));
      expect(newestFirst.map((e) => e.gsi1sk)).toEqual(range(0, 7).reverse().map(sortKeyOf));
      // 7 entries, 2 a page: 4 pages each way.
      expect(queries.count()).toBe(8);
    } finally {
      queries.restore();
    }
  });

  it('returns the table keys and the projection, not the whole item', async () => {
    // prepare
    const { partition, keys } = await aPartition(1);
    // act
    const [entry] = await queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: true });
    // assess
    expect(entry).toEqual({ ...keys[0], gsi1pk: partition, gsi1sk: sortKeyOf(0), status: 'odd' });
    expect(itemKeyOf(entry!)).toEqual(keys[0]);
  });

  it('keeps only the entries `keep` accepts, across pages', async () => {
    // prepare
    const { partition } = await aPartition(10);
    // act
    const entries = await queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: false, pageSize: 3 }, (e) => e.status === 'odd');
    // assess
    expect(entries.map((e) => e.gsi1sk)).toEqual([0, 3, 6, 9].map(sortKeyOf));
  });

  it('applies the sort key condition: between (both ends included), at least, below', async () => {
    // prepare
    const { partition } = await aPartition(6);
    const read = (sortKey: Parameters<typeof queryAll>[2]['sortKey']) =>
      queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: false, sortKey, pageSize: 2 }).then((entries) => entries.map((e) => e.gsi1sk));
    // act / assess
    expect(await read({ between: [sortKeyOf(1), sortKeyOf(3)] })).toEqual([1, 2, 3].map(sortKeyOf));
    expect(await read({ atLeast: sortKeyOf(4) })).toEqual([4, 5].map(sortKeyOf));
    expect(await read({ below: sortKeyOf(2) })).toEqual([0, 1].map(sortKeyOf));
  });

  it('resumes after the cursor', async () => {
    // prepare
    const { partition, keys } = await aPartition(5);
    const cursor = { ...keys[3], gsi1pk: partition, gsi1sk: sortKeyOf(3) };
    // act
    const entries = await queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: true, cursor, pageSize: 1 });
    // assess
    expect(entries.map((e) => e.gsi1sk)).toEqual([2, 1, 0].map(sortKeyOf));
  });

  it('answers an empty list for an empty partition', async () => {
    expect(await queryAll(db, tableName, { index: 'gsi1', partition: `INDEX_QUERY_TEST#${randomToken(10)}`, newestFirst: true })).toEqual([]);
  });
});

describe('queryPage', () => {
  it('reads one page and hands back where the next one starts', async () => {
    // prepare
    const { partition } = await aPartition(5);
    // act
    const first = await queryPage(db, tableName, { index: 'gsi1', partition, newestFirst: true, pageSize: 3 });
    const second = await queryPage(db, tableName, { index: 'gsi1', partition, newestFirst: true, pageSize: 3, cursor: first.nextCursor });
    // assess
    expect(first.items.map((e) => e.gsi1sk)).toEqual([4, 3, 2].map(sortKeyOf));
    expect(first.nextCursor).toBeDefined();
    expect(second.items.map((e) => e.gsi1sk)).toEqual([1, 0].map(sortKeyOf));
    expect(second.nextCursor).toBeUndefined();
  });
});

describe('queryAll over the table', () => {
  /** One table partition of its own: `count` items whose sk sorts in creation order, and one of another kind. */
  async function aTablePartition(count: number): Promise<string> {
    const pk = `QUERY_PAGE_TEST#${randomToken(10)}`;
    for (let i = 0; i < count; i += 1) await db.send(new PutCommand({ TableName: tableName, Item: { pk, sk: `ITEM#${sortKeyOf(i)}`, n: i, status: 'kept' } }));
    await db.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'OTHER#x', n: -1 } }));
    return pk;
  }

  it('reads the partition key and the sort key of the table, with a prefix, both ways, strongly consistent when asked', async () => {
    // prepare
    const partition = await aTablePartition(5);
    const queries = countCalls(db, QueryCommand);
    try {
      // act
      const oldestFirst = await queryAll(db, tableName, { partition, sortKey: { beginsWith: 'ITEM#' }, newestFirst: false, pageSize: 2, consistent: true });
      const newestFirst = await queryAll(db, tableName, { partition, sortKey: { beginsWith: 'ITEM#' }, newestFirst: true });
      // assess
      expect(numbersOf(oldestFirst)).toEqual(range(0, 5));
      expect(numbersOf(newestFirst)).toEqual(range(0, 5).reverse());
      const [first, , , second] = queries.calls();
      expect(first!.input).toMatchObject({ TableName: tableName, ConsistentRead: true, ScanIndexForward: true, Limit: 2 });
      expect(first!.input.IndexName).toBeUndefined();
      expect(second!.input.ConsistentRead).toBeUndefined();
    } finally {
      queries.restore();
    }
  });

  it('reads only the attributes asked for, reserved words included', async () => {
    // prepare
    const partition = await aTablePartition(2);
    // act
    const items = await queryAll(db, tableName, { partition, sortKey: { beginsWith: 'ITEM#' }, newestFirst: false, attributes: ['sk', 'status'] });
    // assess
    expect(items).toEqual([
      { sk: `ITEM#${sortKeyOf(0)}`, status: 'kept' },
      { sk: `ITEM#${sortKeyOf(1)}`, status: 'kept' },
    ]);
  });
});

describe('countItems', () => {
  it('counts the entries of an index partition with one Query that reads no item', async () => {
    // prepare
    const { partition } = await aPartition(4);
    const queries = countCalls(db, QueryCommand);
    try {
      // act
      const count = await countItems(db, tableName, { index: 'gsi1', partition });
      // assess
      expect(count).toBe(4);
      expect(queries.calls().map((c) => c.input.Select)).toEqual(['COUNT']);
    } finally {
      queries.restore();
    }
  });
});

describe('itemsOf', () => {
  it('reads the table items of index entries, in the entries\' order', async () => {
    // prepare
    const { partition } = await aPartition(3);
    const entries = await queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: true });
    // act
    const items = await itemsOf(db, tableName, entries);
    // assess: the whole items (n is not projected into the index)
    expect(entries.every((entry) => entry.n === undefined)).toBe(true);
    expect(numbersOf(items)).toEqual([2, 1, 0]);
  });
});

describe('sortKeyWithin', () => {
  it('is between both bounds, at least `from`, below `to`, or no condition', () => {
    expect(sortKeyWithin('a', 'b')).toEqual({ between: ['a', 'b'] });
    expect(sortKeyWithin('a', undefined)).toEqual({ atLeast: 'a' });
    expect(sortKeyWithin(undefined, 'b')).toEqual({ below: 'b' });
    expect(sortKeyWithin(undefined, undefined)).toBeUndefined();
  });
});

describe('batchGetItems', () => {
  it('reads more than 100 keys in batches of at most 100, in the order of the keys', async () => {
    // prepare
    const { keys } = await aPartition(230);
    const shuffled = [...keys].reverse().map((key, i, all) => all[(i * 7) % all.length]!); // 7 and 230 are coprime: a permutation
    const batches = countCalls(db, BatchGetCommand);
    try {
      // act
      const items = await batchGetItems(db, tableName, shuffled);
      // assess
      expect(new Set(shuffled.map((k) => k.pk)).size).toBe(230);
      expect(items.map(itemKeyOf)).toEqual(shuffled);
      expect(numbersOf(items)).toEqual(shuffled.map((k) => Number(k.pk.split('#').at(-1))));
      expect(batches.count()).toBe(3);
      for (const command of batches.calls()) expect(command.input.RequestItems![tableName]!.Keys!.length).toBeLessThanOrEqual(100);
    } finally {
      batches.restore();
    }
  });

  it('skips keys with no item and keeps the order of the others', async () => {
    // prepare
    const { partition, keys } = await aPartition(4);
    const missing = (i: number) => ({ pk: `${partition}#missing${i}`, sk: SK });
    // act
    const items = await batchGetItems(db, tableName, [missing(0), keys[2]!, missing(1), keys[0]!, keys[3]!, missing(2)]);
    // assess
    expect(numbersOf(items)).toEqual([2, 0, 3]);
  });

  it('asks again for the UnprocessedKeys until none is left', async () => {
    // prepare: a client that answers only the first key of each batch and hands the rest back as unprocessed
    const { keys } = await aPartition(5);
    const sent: number[] = [];
    const stingy = {
      send: async (command: BatchGetCommand) => {
        const asked = command.input.RequestItems![tableName]!.Keys!;
        sent.push(asked.length);
        const answer = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: asked.slice(0, 1) } } }));
        return { ...answer, UnprocessedKeys: asked.length > 1 ? { [tableName]: { Keys: asked.slice(1) } } : {} };
      },
    } as unknown as DynamoDBDocumentClient;
    const order = [keys[4]!, keys[1]!, keys[3]!, keys[0]!, keys[2]!];
    // act
    const items = await batchGetItems(stingy, tableName, order);
    // assess
    expect(sent).toEqual([5, 4, 3, 2, 1]);
    expect(numbersOf(items)).toEqual([4, 1, 3, 0, 2]);
  });

  it('sends nothing for no keys', async () => {
    const batches = countCalls(db, BatchGetCommand);
    try {
      expect(await batchGetItems(db, tableName, [])).toEqual([]);
      expect(batches.count()).toBe(0);
    } finally {
      batches.restore();
    }
  });
});
