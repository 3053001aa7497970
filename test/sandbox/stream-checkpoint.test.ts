import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/sandbox/dynamodb-local.ts';
import { StreamReader } from '../../infra/sandbox/stream-reader.ts';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';
import { testConnection } from '../support/dynamo.ts';

/**
 * The sandbox's stream position with batches running side by side (STREAM_BATCHES_PER_SHARD): a record still in a
 * batch, waiting for its turn or for its retry holds the saved position back, so a restart reads it again.
 */
describe("the sandbox stream reader's saved position", () => {
  const { endpoint } = testConnection();
  const tables = localClient(endpoint);
  const streams = new DynamoDBStreamsClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  // A table of its own: the run's shared one has every other file's records in its stream.
  const tableName = `svc-test-stream-position-${process.pid}`;
  const db = createDocumentClient({ endpoint, tableName });
  const reader = () => new StreamReader(streams, tables, db, tableName, 'position-test');
  beforeAll(() => ensureTable(endpoint, tableName), 120_000);
  afterAll(async () => {
    await tables.send(new DeleteTableCommand({ TableName: tableName }));
    streams.destroy();
    tables.destroy();
    db.destroy();
  });

  const write = (n: number) => db.send(new PutCommand({ TableName: tableName, Item: { pk: `SESSION#position-${n}`, sk: 'SESSION' } }));
  /** Polls until `count` records of ours came, whatever else the stream holds (the reader's own checkpoints). */
  async function pollOurs(from: StreamReader, count: number): Promise<DynamoDBRecord[]> {
    const ours: DynamoDBRecord[] = [];
    for (let tries = 0; ours.length < count && tries < 200; tries++) {
      ours.push(...(await from.poll()).records.filter((r) => r.dynamodb?.Keys?.pk?.S?.startsWith('SESSION#position-')));
      if (ours.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return ours;
  }
  const pkOf = (record: DynamoDBRecord) => record.dynamodb?.Keys?.pk?.S;

  it('stops before the first record not handled yet, and a restart reads from there', async () => {
    const first = reader();
    await first.start();
    for (const n of [1, 2, 3]) await write(n);
    const records = await pollOurs(first, 3);
    expect(records.map(pkOf)).toEqual(['SESSION#position-1', 'SESSION#position-2', 'SESSION#position-3']);

    // The second record is still in a running batch when the others are done.
    await first.commit(records, [records[1]!]);
    const restarted = reader();
    await restarted.start();
    await write(4);
    expect((await pollOurs(restarted, 3)).map(pkOf)).toEqual(['SESSION#position-2', 'SESSION#position-3', 'SESSION#position-4']);

    // Once it is done too, the position moves past all of them.
    await first.commit([], []);
    const again = reader();
    await again.start();
    expect((await pollOurs(again, 1)).map(pkOf)).toEqual(['SESSION#position-4']);
  });
});
