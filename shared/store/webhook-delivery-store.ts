import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../domain/events.ts';
import type { Mode } from '../domain/session-state.ts';
import type { DeliveryState, WebhookDelivery } from '../webhooks/delivery.ts';
import { ConditionFailedError, conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { batchGetItems, itemKeyOf, queryIndexPage } from './index-queries.ts';
import { keys } from './keys.ts';
import { outboxPut } from './outbox.ts';

export interface DeliveryListQuery {
  endpointId?: string;
  eventId?: string;
  state?: DeliveryState;
  limit: number;
  /** The id of the last delivery of the previous page. */
  startingAfter?: string;
}

/** The delivery log. Deliveries outlive their endpoint: deleting an endpoint keeps its history. */
export interface WebhookDeliveryStore {
  /** Creates the delivery unless it exists; false when another dispatcher (or an earlier run) already did. */
  createIfAbsent(delivery: WebhookDelivery): Promise<boolean>;
  /**
   * A synthetic event meant for one endpoint (webhook.test) and its delivery, in one transaction. The event carries
   * its target, so the dispatcher leaves it alone instead of fanning it out.
   */
  createTargeted(delivery: WebhookDelivery, envelope: EventEnvelope): Promise<void>;
  get(deliveryId: string): Promise<WebhookDelivery | null>;
  /** Newest first. */
  list(merchantId: string, mode: Mode, query: DeliveryListQuery): Promise<{ items: WebhookDelivery[]; hasMore: boolean }>;
  /** Replaces the delivery if nobody changed it since `expectedVersion` was read. */
  save(delivery: WebhookDelivery, expectedVersion: number): Promise<void>;
  /** Undoes createIfAbsent when the delivery could not be queued, so a retried dispatch creates and queues it again. */
  deleteUnsent(deliveryId: string): Promise<void>;
}

const NOT_IN_DOMAIN = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'type'] as const;
/** Deliveries are read from the index in chunks of this size, then filtered. */
const LIST_CHUNK = 50;

function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  const copy: Record<string, unknown> = { ...item };
  for (const attribute of NOT_IN_DOMAIN) delete copy[attribute];
  return copy as unknown as WebhookDelivery;
}

export function createWebhookDeliveryStore(db: DynamoDBDocumentClient, tableName: string): WebhookDeliveryStore {
  const item = (d: WebhookDelivery) => ({
    ...keys.webhookDelivery(d.id),
    ...keys.merchantWebhookDeliveries(d.merchantId, d.mode, d.createdAt, d.id),
    type: 'webhook_delivery',
    ...d,
  });

  return {
    async createIfAbsent(delivery) {
      try {
        await conditional(() => db.send(new PutCommand({ TableName: tableName, Item: item(delivery), ConditionExpression: itemDoesNotExist })));
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },

    async createTargeted(delivery, envelope) {
      const event = outboxPut(tableName, delivery.merchantId, envelope);
      const targeted = { Put: { ...event.Put, Item: { ...event.Put.Item, targetEndpointId: delivery.endpointId } } };
      await conditional(() =>
        db.send(new TransactWriteCommand({ TransactItems: [targeted, { Put: { TableName: tableName, Item: item(delivery), ConditionExpression: itemDoesNotExist } }] })),
      );
    },

    async get(deliveryId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.webhookDelivery(deliveryId) }));
      return Item ? toDelivery(Item) : null;
    },

    async list(merchantId, mode, query) {
      const partition = keys.merchantWebhookDeliveries(merchantId, mode, '', '').gsi1pk;
      let startKey: Record<string, unknown> | undefined;
      if (query.startingAfter) {
        const last = await this.get(query.startingAfter);
        if (last && last.merchantId === merchantId && last.mode === mode) {
          startKey = { ...keys.webhookDelivery(last.id), ...keys.merchantWebhookDeliveries(merchantId, mode, last.createdAt, last.id) };
        }
      }
      // The index holds keys only; filters apply to the full items, read a chunk at a time until the page is full.
      const items: WebhookDelivery[] = [];
      do {
        const page = await queryIndexPage(db, tableName, { partition, newestFirst: true, pageSize: LIST_CHUNK, startKey });
        for (const d of (await batchGetItems(db, tableName, page.entries.map(itemKeyOf))).map(toDelivery)) {
          if (query.endpointId && d.endpointId !== query.endpointId) continue;
          if (query.eventId && d.eventId !== query.eventId) continue;
          if (query.state && d.state !== query.state) continue;
          items.push(d);
          if (items.length > query.limit) return { items: items.slice(0, query.limit), hasMore: true };
        }
        startKey = page.lastKey;
      } while (startKey);
      return { items, hasMore: false };
    },

    async save(delivery, expectedVersion) {
      await conditional(() =>
        db.send(
          new PutCommand({
            TableName: tableName,
            Item: item(delivery),
            ConditionExpression: `${itemExists} AND version = :expected`,
            ExpressionAttributeValues: { ':expected': expectedVersion },
          }),
        ),
      );
    },

    async deleteUnsent(deliveryId) {
      try {
        await conditional(() =>
          db.send(
            new DeleteCommand({
              TableName: tableName,
              Key: keys.webhookDelivery(deliveryId),
              ConditionExpression: 'attemptCount = :zero',
              ExpressionAttributeValues: { ':zero': 0 },
            }),
          ),
        );
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    },
  };
}
