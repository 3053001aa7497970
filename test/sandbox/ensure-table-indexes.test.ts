import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/sandbox/dynamodb-local.ts';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';
import { secondaryIndexes, tableDefinition } from '../../shared/store/table-definition.ts';
import { testConnection } from '../support/dynamo.ts';

describe('the sandbox table', () => {
  const { endpoint } = testConnection();
  const client = localClient(endpoint);
  const tableName = `svc-kept-${process.pid}-${Date.now()}`;
  afterAll(async () => {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
    client.destroy();
  });

  it('gains an index declared after it was created (a kept sandbox from before gsi2), keeping its items', async () => {
    const { partitionKey, sortKey, gsi1 } = tableDefinition;
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [partitionKey, sortKey, gsi1.partitionKey, gsi1.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: partitionKey, KeyType: 'HASH' },
          { AttributeName: sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: gsi1.name,
            KeySchema: [
              { AttributeName: gsi1.partitionKey, KeyType: 'HASH' },
              { AttributeName: gsi1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...gsi1.nonKeyAttributes] },
          },
        ],
      }),
    );
    const db = createDocumentClient({ tableName, endpoint });
    await db.send(new PutCommand({ TableName: tableName, Item: { pk: 'KEPT#1', sk: 'KEPT', gsi2pk: 'P', gsi2sk: '1' } }));

    await ensureTable(endpoint, tableName);
    await ensureTable(endpoint, tableName); // again: nothing left to add

    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual(secondaryIndexes.map((i) => i.name).sort());
    const { Items } = await db.send(
      new QueryCommand({ TableName: tableName, IndexName: tableDefinition.gsi2.name, KeyConditionExpression: 'gsi2pk = :p', ExpressionAttributeValues: { ':p': 'P' } }),
    );
    expect(Items).toEqual([expect.objectContaining({ pk: 'KEPT#1' })]);
    db.destroy();
  });
});
