import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TestModeRequest } from '../domain/test-mode-request.ts';
import { conditional, itemExists } from './conditions.ts';
import { keys } from './keys.ts';
import { itemsOf, queryAll } from './query-page.ts';
import type { TransactItem } from './session-store.ts';

/**
 * Test-mode requests: the latest per merchant and gateway, beside the merchant item. A pending one is also in the
 * TEST_MODE_REQUESTS index partition, which the platform team's CLI lists; deciding takes it out of the index.
 */
export interface TestModeRequestStore {
  /** Writes (replaces) the request and `alsoWrite` (its audit entry) in one transaction. */
  put(request: TestModeRequest, alsoWrite?: TransactItem[]): Promise<void>;
  listForMerchant(merchantId: string): Promise<TestModeRequest[]>;
  /** Pending requests of every merchant, oldest first. */
  listPending(): Promise<TestModeRequest[]>;
  /**
   * Approves or refuses a pending request; an approval sets the merchant's test mode for the gateway in the same
   * transaction. ConditionFailedError when there is no pending request.
   */
  decide(request: TestModeRequest, approved: boolean, now: string): Promise<TestModeRequest>;
}

const toRequest = (item: Record<string, unknown>): TestModeRequest => ({
  merchantId: item.merchantId as string,
  gateway: item.gateway as TestModeRequest['gateway'],
  enabled: item.enabled as boolean,
  status: item.status as TestModeRequest['status'],
  requestedAt: item.requestedAt as string,
  requestedBy: item.requestedBy as string,
  decidedAt: (item.decidedAt as string | null) ?? null,
});

export function createTestModeRequestStore(db: DynamoDBDocumentClient, tableName: string): TestModeRequestStore {
  return {
    async put(request, alsoWrite = []) {
      const Item = { ...keys.testModeRequest(request.merchantId, request.gateway), ...keys.testModeRequests(request.requestedAt, request.merchantId, request.gateway), type: 'test_mode_request', ...request };
      await conditional(() => db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item } }, ...alsoWrite] })));
    },
    async listForMerchant(merchantId) {
      const items = await queryAll(db, tableName, { partition: keys.merchant(merchantId).pk, sortKey: { beginsWith: 'TEST_MODE_REQUEST#' }, newestFirst: false });
      return items.map(toRequest);
    },
    async listPending() {
      const entries = await queryAll(db, tableName, { index: 'gsi1', partition: 'TEST_MODE_REQUESTS', newestFirst: false });
      return (await itemsOf(db, tableName, entries)).map(toRequest);
    },
    async decide(request, approved, now) {
      const status = approved ? 'approved' : 'refused';
      const writes: TransactItem[] = [
        {
          Update: {
            TableName: tableName,
            Key: keys.testModeRequest(request.merchantId, request.gateway),
            UpdateExpression: 'SET #status = :status, decidedAt = :now REMOVE gsi1pk, gsi1sk',
            ConditionExpression: '#status = :pending AND requestedAt = :requestedAt',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': status, ':now': now, ':pending': 'pending', ':requestedAt': request.requestedAt },
          },
        },
      ];
      if (approved) {
        writes.push({
          Update: {
            TableName: tableName,
            Key: keys.merchant(request.merchantId),
            UpdateExpression: 'SET testMode.#g = :enabled',
            ConditionExpression: itemExists,
            ExpressionAttributeNames: { '#g': request.gateway },
            ExpressionAttributeValues: { ':enabled': request.enabled },
          },
        });
      }
      await conditional(() => db.send(new TransactWriteCommand({ TransactItems: writes })));
      return { ...request, status, decidedAt: now };
    },
  };
}
