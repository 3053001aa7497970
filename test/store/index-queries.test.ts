import { BatchGetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { randomToken } from '../../shared/ids.ts';
import { batchGetItems, itemKeyOf, queryIndexEntries, queryIndexPage, type ItemKey } from '../../shared/store/index-queries.ts';
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

describe('queryIndexEntries', () => {
  it('follows LastEvaluatedKey over several Query pages, in index order both ways', async () => {
    // prepare
    const { partition } = await aPartition(7);
    const queries = countCalls(db, QueryCommand);
    try {
      // act
      const oldestFirst = await queryIndexEntries(db, tableName, { partition, newestFirst: false, pageSize: 2 });
      const newestFirst = await queryIndexEntries(db, tableName, { partition, newestFirst: true, pageSize: 2 });
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
    const [entry] = await queryIndexEntries(db, tableName, { partition, newestFirst: true });
    // assess
    expect(entry).toEqual({ ...keys[0], gsi1pk: partition, gsi1sk: sortKeyOf(0), status: 'odd' });
    expect(itemKeyOf(entry!)).toEqual(keys[0]);
  });

  it('keeps only the entries `keep` accepts, across pages', async () => {
    // prepare
    const { partition } = await aPartition(10);
    // act
    const entries = await queryIndexEntries(db, tableName, { partition, newestFirst: false, pageSize: 3 }, (e) => e.status === 'odd');
    // assess
    expect(entries.map((e) => e.gsi1sk)).toEqual([0, 3, 6, 9].map(sortKeyOf));
  });

  it('applies the sort key condition: between (both ends included), at least, below', async () => {
    // prepare
    const { partition } = await aPartition(6);
    const read = (sortKey: Parameters<typeof queryIndexEntries>[2]['sortKey']) =>
      queryIndexEntries(db, tableName, { partition, newestFirst: false, sortKey, pageSize: 2 }).then((entries) => entries.map((e) => e.gsi1sk));
    // act / assess
    expect(await read({ between: [sortKeyOf(1), sortKeyOf(3)] })).toEqual([1, 2, 3].map(sortKeyOf));
    expect(await read({ atLeast: sortKeyOf(4) })).toEqual([4, 5].map(sortKeyOf));
    expect(await read({ below: sortKeyOf(2) })).toEqual([0, 1].map(sortKeyOf));
  });

  it('resumes after the start key', async () => {
    // prepare
    const { partition, keys } = await aPartition(5);
    const startKey = { ...keys[3], gsi1pk: partition, gsi1sk: sortKeyOf(3) };
    // act
    const entries = await queryIndexEntries(db, tableName, { partition, newestFirst: true, startKey, pageSize: 1 });
    // assess
    expect(entries.map((e) => e.gsi1sk)).toEqual([2, 1, 0].map(sortKeyOf));
  });

  it('answers an empty list for an empty partition', async () => {
    expect(await queryIndexEntries(db, tableName, { partition: `INDEX_QUERY_TEST#${randomToken(10)}`, newestFirst: true })).toEqual([]);
  });
});

describe('queryIndexPage', () => {
  it('reads one page and hands back where the next one starts', async () => {
    // prepare
    const { partition } = await aPartition(5);
    // act
    const first = await queryIndexPage(db, tableName, { partition, newestFirst: true, pageSize: 3 });
    const second = await queryIndexPage(db, tableName, { partition, newestFirst: true, pageSize: 3, startKey: first.lastKey });
    // assess
    expect(first.entries.map((e) => e.gsi1sk)).toEqual([4, 3, 2].map(sortKeyOf));
    expect(first.lastKey).toBeDefined();
    expect(second.entries.map((e) => e.gsi1sk)).toEqual([1, 0].map(sortKeyOf));
    expect(second.lastKey).toBeUndefined();
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
