import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/ids.ts';
import { CallCounter, UNSCOPED } from '../../shared/observability/call-counter.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { tableName } = testConnection();
const db = testDb();
afterAll(() => db.destroy());

const key = () => ({ pk: `BENCHTEST#${randomToken(12)}`, sk: 'X' });

describe('CallCounter', () => {
  it('counts each call of a document client by service and command, with the capacity DynamoDB reports', async () => {
    // prepare
    const counter = new CallCounter({ measureCapacity: true });
    counter.attach(db);
    const item = key();
    const before = counter.snapshot();

    // act
    await db.send(new PutCommand({ TableName: tableName, Item: { ...item, payload: 'x' } }));
    await db.send(new GetCommand({ TableName: tableName, Key: item }));
    await db.send(new GetCommand({ TableName: tableName, Key: key() }));
    await db.send(
      new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: key() } }, { Put: { TableName: tableName, Item: key() } }] }),
    );

    // assess
    const counted = Object.fromEntries(counter.since(before).map((c) => [c.command, c]));
    expect(Object.keys(counted).sort()).toEqual(['GetItem', 'PutItem', 'TransactWriteItems']);
    expect(counted.GetItem).toMatchObject({ scope: UNSCOPED, service: 'DynamoDB', calls: 2 });
    expect(counted.PutItem!.calls).toBe(1);
    expect(counted.TransactWriteItems!.calls).toBe(1);
    expect(counted.GetItem!.capacityUnits).toBeGreaterThan(0);
    expect(counted.TransactWriteItems!.capacityUnits).toBeGreaterThan(0);
    expect(counted.GetItem!.itemsPerCall).toBe(1);
    expect(counted.TransactWriteItems!.itemsPerCall).toBe(2);
  });

  it('sizes batches by their keys and a Query by the items it read', async () => {
    // prepare
    const counter = new CallCounter();
    counter.attach(db);
    const partition = `BENCHTEST#${randomToken(12)}`;
    const items = [0, 1, 2].map((i) => ({ pk: partition, sk: `X${i}` }));
    for (const item of items) await db.send(new PutCommand({ TableName: tableName, Item: item }));
    const before = counter.snapshot();

    // act
    await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: items.slice(0, 2) } } }));
    await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': partition } }));

    // assess
    const counted = Object.fromEntries(counter.since(before).map((c) => [c.command, c.itemsPerCall]));
    expect(counted).toEqual({ BatchGetItem: 2, Query: 3 });
  });

  it('counts a call under the scope it was made in, through awaits, and nothing else under it', async () => {
    // prepare
    const counter = new CallCounter();
    counter.attach(db);
    const before = counter.snapshot();

    // act
    await counter.within('request', async () => {
      await new Promise((r) => setTimeout(r, 1));
      await db.send(new GetCommand({ TableName: tableName, Key: key() }));
    });
    await db.send(new GetCommand({ TableName: tableName, Key: key() }));

    // assess
    expect(counter.since(before, 'request')).toEqual([{ scope: 'request', service: 'DynamoDB', command: 'GetItem', calls: 1, capacityUnits: 0, itemsPerCall: 1 }]);
    expect(counter.since(before, UNSCOPED).map((c) => c.calls)).toEqual([1]);
  });
});
