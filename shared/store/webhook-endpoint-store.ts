import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../domain/session-state.ts';
import type { WebhookEndpoint } from '../webhooks/endpoint.ts';
import { conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { batchGetItems, itemKeyOf, queryIndexEntries } from './index-queries.ts';
import { keys } from './keys.ts';
import { tableDefinition } from './table-definition.ts';

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

const NOT_IN_DOMAIN = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'type'] as const;

function toEndpoint(item: Record<string, unknown>): WebhookEndpoint {
  const copy: Record<string, unknown> = { ...item };
  for (const attribute of NOT_IN_DOMAIN) delete copy[attribute];
  return copy as unknown as WebhookEndpoint;
}

export function createWebhookEndpointStore(db: DynamoDBDocumentClient, tableName: string): WebhookEndpointStore {
  const item = (e: WebhookEndpoint) => ({
    ...keys.webhookEndpoint(e.id),
    ...keys.merchantWebhookEndpoints(e.merchantId, e.mode, e.createdAt, e.id),
    type: 'webhook_endpoint',
    ...e,
  });
  return {
    async create(endpoint) {
      await conditional(() => db.send(new PutCommand({ TableName: tableName, Item: item(endpoint), ConditionExpression: itemDoesNotExist })));
    },
    async get(endpointId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.webhookEndpoint(endpointId) }));
      return Item ? toEndpoint(Item) : null;
    },
    async count(merchantId, mode) {
      const { Count } = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: tableDefinition.gsi1.name,
          KeyConditionExpression: 'gsi1pk = :p',
          ExpressionAttributeValues: { ':p': keys.merchantWebhookEndpoints(merchantId, mode, '', '').gsi1pk },
          Select: 'COUNT',
        }),
      );
      return Count ?? 0;
    },
    async list(merchantId, mode) {
      const entries = await queryIndexEntries(db, tableName, { partition: keys.merchantWebhookEndpoints(merchantId, mode, '', '').gsi1pk, newestFirst: false });
      return (await batchGetItems(db, tableName, entries.map(itemKeyOf))).map(toEndpoint);
    },
    async save(endpoint, expectedVersion) {
      await conditional(() =>
        db.send(
          new PutCommand({
            TableName: tableName,
            Item: item(endpoint),
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
