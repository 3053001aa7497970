/**
 * Creates the test file's own table (test/support/dynamo.ts) before the file's tests run, with one record in its
 * stream: DynamoDB Local answers a reader that took a LATEST iterator of a stream still empty with
 * TrimmedDataAccessException once records arrive, which the shared table of old never showed (it was written first).
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../infra/sandbox/dynamodb-local.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { endpoint, tableName } = testConnection();
await ensureTable(endpoint, tableName);
const db = testDb();
const Key = { pk: 'LOCAL_TEST_FILE', sk: 'stream-start' };
await db.send(new PutCommand({ TableName: tableName, Item: Key }));
await db.send(new DeleteCommand({ TableName: tableName, Key }));
db.destroy();
