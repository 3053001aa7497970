import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';

/**
 * This test file's own table in the run's DynamoDB Local (created before the file runs: test/setup/file-table.ts).
 * A table per file, not one for the run: a scan (before/after comparisons, leak scans) and a sandbox's stream reader
 * then read this file's items only, not everything every file before it wrote, which made them slower all run long.
 */
const fileTable = `${inject('tableName')}-${randomUUID().slice(0, 8)}`;

/** The run's DynamoDB Local, from the global setup, and this file's table in it. */
export const testConnection = () => ({ endpoint: inject('dynamoEndpoint'), tableName: fileTable });

export const testDb = () => createDocumentClient(testConnection());

/** Every item of this file's table, for before/after comparisons and leak scans. */
export async function scanTable(): Promise<Record<string, unknown>[]> {
  const db = testDb();
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: fileTable, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  db.destroy();
  return items;
}

/** Items whose partition key mentions the merchant: what one test's merchant owns, ignoring other files' data. */
export async function itemsOfMerchant(merchantId: string): Promise<Record<string, unknown>[]> {
  return (await scanTable()).filter((item) => JSON.stringify(item).includes(merchantId));
}
