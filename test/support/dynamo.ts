import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';

/** The run's DynamoDB Local and this worker's table, from the global setup (one table per worker, VITEST_POOL_ID 1 to maxWorkers). */
export const testConnection = () => ({ endpoint: inject('dynamoEndpoint'), tableName: `${inject('tableName')}-${process.env.VITEST_POOL_ID}` });

export const testDb = () => createDocumentClient(testConnection());

/** Every item of the table (default this worker's), for before/after comparisons and leak scans. */
export async function scanTable(tableName: string = testConnection().tableName): Promise<Record<string, unknown>[]> {
  const db = testDb();
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  db.destroy();
  return items;
}

/** Items that mention any of the merchants: what one test's merchants own, ignoring other files' data. One scan. */
export async function itemsOfMerchants(merchantIds: string[], tableName?: string): Promise<Record<string, unknown>[]> {
  return (await scanTable(tableName)).filter((item) => {
    const text = JSON.stringify(item);
    return merchantIds.some((id) => text.includes(id));
  });
}

/** Items that mention the merchant: what one test's merchant owns, ignoring other files' data. */
export async function itemsOfMerchant(merchantId: string, tableName?: string): Promise<Record<string, unknown>[]> {
  return itemsOfMerchants([merchantId], tableName);
}
