import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../domain/events.ts';
import type { Mode } from '../domain/session-state.ts';
import type { DeliveryState, WebhookDelivery } from '../webhooks/delivery.ts';
import { ConditionFailedError, conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { itemMapper } from './item-mapper.ts';
import { keys } from './keys.ts';
import { outboxPut } from './outbox.ts';
import { itemsOf, queryPage, type Cursor } from './query-page.ts';

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

/** Deliveries are read from the index in chunks of this size, then filtered. */
const LIST_CHUNK = 50;

/** A delivery's item: its key and its entry in the merchant's delivery log (gsi1). */
export const webhookDeliveryItems = itemMapper({
  type: 'webhook_delivery',
  keys: (d: WebhookDelivery) => ({ ...keys.webhookDelivery(d.id), ...keys.merchantWebhookDeliveries(d.merchantId, d.mode, d.createdAt, d.id) }),
});

export function createWebhookDeliveryStore(db: DynamoDBDocumentClient, tableName: string): WebhookDeliveryStore {

  return {
    async createIfAbsent(delivery) {
      try {
        await conditional(() => db.send(new PutCommand({ TableName: tableName, Item: webhookDeliveryItems.toItem(delivery), ConditionExpression: itemDoesNotExist })));
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
        db.send(new TransactWriteCommand({ TransactItems: [targeted, { Put: { TableName: tableName, Item: webhookDeliveryItems.toItem(delivery), ConditionExpression: itemDoesNotExist } }] })),
      );
    },

    async get(deliveryId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.webhookDelivery(deliveryId) }));
      return Item ? webhookDeliveryItems.fromItem(Item) : null;
    },

    async list(merchantId, mode, query) {
      const partition = keys.merchantWebhookDeliveries(merchantId, mode, '', '').gsi1pk;
      let cursor: Cursor | undefined;
      if (query.startingAfter) {
        const last = await this.get(query.startingAfter);
        if (last && last.merchantId === merchantId && last.mode === mode) {
          cursor = { ...keys.webhookDelivery(last.id), ...keys.merchantWebhookDeliveries(merchantId, mode, last.createdAt, last.id) };
        }
      }
      // The index holds keys only; filters apply to the full items, read a chunk at a time until the page is full.
      const items: WebhookDelivery[] = [];
      do {
        const page = await queryPage(db, tableName, { index: 'gsi1', partition, newestFirst: true, pageSize: LIST_CHUNK, cursor });
        for (const d of (await itemsOf(db, tableName, page.items)).map(webhookDeliveryItems.fromItem)) {
          if (query.endpointId && d.endpointId !== query.endpointId) continue;
          if (query.eventId && d.eventId !== query.eventId) continue;
          if (query.state && d.state !== query.state) continue;
          items.push(d);
          if (items.length > query.limit) return { items: items.slice(0, query.limit), hasMore: true };
        }
        cursor = page.nextCursor;
      } while (cursor);
      return { items, hasMore: false };
    },

    async save(delivery, expectedVersion) {
      await conditional(() =>
        db.send(
          new PutCommand({
            TableName: tableName,
            Item: webhookDeliveryItems.toItem(delivery),
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
