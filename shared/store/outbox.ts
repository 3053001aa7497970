import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../domain/events.ts';
import { itemDoesNotExist } from './conditions.ts';
import { keys } from './keys.ts';
import { itemsOf, queryPage } from './query-page.ts';

/** Outbox records are kept 30 days: long enough to redeliver, short enough not to grow forever. */
export const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

export interface StoredEvent {
  merchantId: string;
  envelope: EventEnvelope;
}

/**
 * The Put that records an event; callers add it to the transaction that makes the change it announces,
 * so an event exists if and only if its change happened.
 */
export function outboxPut(tableName: string, merchantId: string, envelope: EventEnvelope) {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...keys.event(envelope.id),
        gsi1pk: `MERCHANT#${merchantId}#${envelope.env}#EVENTS`,
        gsi1sk: `${envelope.createdAt}#${envelope.id}`,
        type: 'event',
        merchantId,
        envelope,
        ttl: Math.floor(Date.parse(envelope.createdAt) / 1000) + EVENT_RETENTION_SECONDS,
      },
      ConditionExpression: itemDoesNotExist,
    },
  };
}

export interface OutboxReader {
  get(eventId: string): Promise<StoredEvent | null>;
  /** Newest first. */
  listForMerchant(merchantId: string, mode: 'test' | 'live', limit?: number): Promise<StoredEvent[]>;
}

export function createOutboxReader(db: DynamoDBDocumentClient, tableName: string): OutboxReader {
  const toStored = (item: Record<string, unknown>): StoredEvent => ({
    merchantId: item.merchantId as string,
    envelope: item.envelope as EventEnvelope,
  });
  return {
    async get(eventId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.event(eventId) }));
      return Item ? toStored(Item) : null;
    },
    async listForMerchant(merchantId, mode, limit = 100) {
      // One Query page only: `limit` caps the answer, it does not page through the partition.
      const { items: entries } = await queryPage(db, tableName, { index: 'gsi1', partition: `MERCHANT#${merchantId}#${mode}#EVENTS`, newestFirst: true, pageSize: limit });
      return (await itemsOf(db, tableName, entries)).map(toStored);
    },
  };
}
