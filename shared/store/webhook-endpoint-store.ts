import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../domain/session-state.ts';
import type { WebhookEndpoint } from '../webhooks/endpoint.ts';
import { conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { itemMapper } from './item-mapper.ts';
import { keys } from './keys.ts';
import { countItems, itemsOf, queryAll } from './query-page.ts';

/** Webhook endpoints of a merchant and mode; the ciphertexts are stored as they come, never decrypted here. */
export interface WebhookEndpointStore {
  create(endpoint: WebhookEndpoint): Promise<void>;
  get(endpointId: string): Promise<WebhookEndpoint | null>;
  /** Oldest first: the order they were registered in. */
  list(merchantId: string, mode: Mode): Promise<WebhookEndpoint[]>;
  /** How many endpoints the merchant has in the mode: one Query that reads only the index, no items. */
  count(merchantId: string, mode: Mode): Promise<number>;
  /** Replaces the endpoint if nobody changed it since `expectedVersion` was read. */
  save(endpoint: WebhookEndpoint, expectedVersion: number): Promise<void>;
  delete(endpointId: string): Promise<void>;
}

/** An endpoint's item: its key and its entry in the merchant's list (gsi1). */
export const webhookEndpointItems = itemMapper({
  type: 'webhook_endpoint',
  keys: (e: WebhookEndpoint) => ({ ...keys.webhookEndpoint(e.id), ...keys.merchantWebhookEndpoints(e.merchantId, e.mode, e.createdAt, e.id) }),
});

export function createWebhookEndpointStore(db: DynamoDBDocumentClient, tableName: string): WebhookEndpointStore {
  return {
    async create(endpoint) {
      await conditional(() => db.send(new PutCommand({ TableName: tableName, Item: webhookEndpointItems.toItem(endpoint), ConditionExpression: itemDoesNotExist })));
    },
    async get(endpointId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.webhookEndpoint(endpointId) }));
      return Item ? webhookEndpointItems.fromItem(Item) : null;
    },
    async count(merchantId, mode) {
      return countItems(db, tableName, { index: 'gsi1', partition: keys.merchantWebhookEndpoints(merchantId, mode, '', '').gsi1pk });
    },
    async list(merchantId, mode) {
      const entries = await queryAll(db, tableName, { index: 'gsi1', partition: keys.merchantWebhookEndpoints(merchantId, mode, '', '').gsi1pk, newestFirst: false });
      return (await itemsOf(db, tableName, entries)).map(webhookEndpointItems.fromItem);
    },
    async save(endpoint, expectedVersion) {
      await conditional(() =>
        db.send(
          new PutCommand({
            TableName: tableName,
            Item: webhookEndpointItems.toItem(endpoint),
            ConditionExpression: `${itemExists} AND version = :expected`,
            ExpressionAttributeValues: { ':expected': expectedVersion },
          }),
        ),
      );
    },
    async delete(endpointId) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: keys.webhookEndpoint(endpointId) }));
    },
  };
}
