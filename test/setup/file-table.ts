/**
 * Creates the test file's own table (test/support/dynamo.ts) before the file's tests run, with one record in its
 * stream: DynamoDB Local answers a reader that took a LATEST iterator of a stream still empty with
 * TrimmedDataAccessException once records arrive, which the shared table of old never showed (it was written first).
 * The table is deleted after the file's last hook: DynamoDB Local slows down with every table it holds (measured: the
 * contention tests took 71 s in a run that kept 180 tables, 12 s alone).
 */
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll } from 'vitest';
import { ensureTable } from '../../infra/sandbox/dynamodb-local.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { endpoint, tableName } = testConnection();
await ensureTable(endpoint, tableName);
const db = testDb();
const Key = { pk: 'LOCAL_TEST_FILE', sk: 'stream-start' };
await db.send(new PutCommand({ TableName: tableName, Item: Key }));
await db.send(new DeleteCommand({ TableName: tableName, Key }));
db.destroy();

// Registered first, so it runs after the file's own afterAll hooks (vitest runs them in reverse): its sandboxes have stopped.
afterAll(async () => {
  const client = testDb();
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  client.destroy();
});
