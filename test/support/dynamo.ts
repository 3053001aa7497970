import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';

/** The run's DynamoDB Local, from the global setup. */
export const testConnection = () => ({ endpoint: inject('dynamoEndpoint'), tableName: inject('tableName') });

export const testDb = () => createDocumentClient(testConnection());

/** Every item of the table, for before/after comparisons and leak scans. */
export async function scanTable(): Promise<Record<string, unknown>[]> {
  const db = testDb();
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: inject('tableName'), ExclusiveStartKey: startKey }));
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
