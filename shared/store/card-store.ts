import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../domain/events.ts';
import type { GatewayId } from '../domain/merchant.ts';
import type { Mode } from '../domain/session-state.ts';
import type { StoredCard } from '../domain/stored-card.ts';
import { conditional, itemDoesNotExist, named } from './conditions.ts';
import { itemMapper } from './item-mapper.ts';
import { keys } from './keys.ts';
import { outboxPut } from './outbox.ts';
import { itemsOf, queryAll, type Item } from './query-page.ts';
import type { TransactItem } from './session-store.ts';

/** The fields of a stored card that test fixtures write directly (test/support/direct-writes.ts); the vault writes StoredCard. */
export interface StoredCardSummary {
  svcToken: string;
  merchantId: string;
  mode: Mode;
  status: 'active' | 'expired' | 'deleted';
  customerRef: string | null;
  gateway: GatewayId;
  brand: string;
  lastFour: string;
  holderName: string | null;
  documentType: string | null;
  documentId: string | null;
}

/** What a de-duplication match points at. */
export interface CardMatch {
  svcToken: string;
  status: StoredCard['status'];
}

/**
 * The card vault's records: one CARD# item per card (metadata, the sealed number, the fingerprint) and one
 * CARD_MATCH# item per (merchant, mode, fingerprint, customer) naming the card, whose conditional Put makes two
 * simultaneous approvals of the same card store it once.
 *
 * @example
 * const items = cards.storeItems(card, decision.kind === 'replace_deleted' ? decision.svcToken : null);
 * // items[0] is the match: a lost race fails the transaction on that index.
 */
export interface CardStore {
  get(svcToken: string): Promise<StoredCard | null>;
  findMatch(merchantId: string, mode: Mode, fingerprint: string, customerRef: string): Promise<CardMatch | null>;
  /** The match Put (index 0; it must not exist, or must still name `replacing`) and the card Put (must not exist). */
  storeItems(card: StoredCard & { customerRef: string }, replacing: string | null): TransactItem[];
  /** The card as it becomes, if nobody changed it since it was read (version check). */
  updateItem(card: StoredCard, expectedVersion: number): TransactItem;
  /** Writes items (card updates, their events) in one transaction. */
  commit(items: TransactItem[]): Promise<void>;
  /** The merchant's cards of this mode that are not deleted, newest first. */
  list(merchantId: string, mode: Mode, customerRef?: string): Promise<StoredCard[]>;
  event(merchantId: string, envelope: EventEnvelope): TransactItem;
  /** The card's entry in the verification index (by estimated end), written whenever its verification is renewed. */
  verificationItem(card: StoredCard & { gatewayAuthExpiresAt: string }): TransactItem;
  /** Tokens of cards whose estimated verification end falls in [from, to), ISO timestamps. */
  verificationsEndingBetween(from: string, to: string): Promise<string[]>;
}

/** A card's item: its key and its entry in the merchant's list (gsi1). Cards stored before notices and versions have none. */
export const cardItems = itemMapper({
  type: 'card',
  keys: (card: StoredCard) => ({ ...keys.card(card.svcToken), ...keys.merchantCards(card.merchantId, card.mode, card.createdAt, card.svcToken) }),
  defaults: { authNoticesSent: [], version: 1 },
});

export function createCardStore(db: DynamoDBDocumentClient, tableName: string): CardStore {

  const readAll = async (merchantId: string, mode: Mode, keep: (entry: Item) => boolean): Promise<StoredCard[]> => {
    // The index projects status: deleted cards are left out before their items are read.
    const entries = await queryAll(db, tableName, { index: 'gsi1', partition: keys.merchantCardsPartition(merchantId, mode), newestFirst: true }, keep);
    return (await itemsOf(db, tableName, entries)).map(cardItems.fromItem);
  };

  return {
    async get(svcToken) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.card(svcToken), ConsistentRead: true }));
      return Item ? cardItems.fromItem(Item) : null;
    },

    async findMatch(merchantId, mode, fingerprint, customerRef) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.cardMatch(merchantId, mode, fingerprint, customerRef), ConsistentRead: true }));
      if (!Item) return null;
      const card = await this.get(Item.svcToken as string);
      return card ? { svcToken: card.svcToken, status: card.status } : null;
    },

    storeItems(card, replacing) {
      const match = {
        Put: {
          TableName: tableName,
          Item: { ...keys.cardMatch(card.merchantId, card.mode, card.fingerprint, card.customerRef), type: 'card_match', merchantId: card.merchantId, svcToken: card.svcToken },
          ...(replacing
            ? { ConditionExpression: 'svcToken = :replacing', ExpressionAttributeValues: { ':replacing': replacing } }
            : { ConditionExpression: itemDoesNotExist }),
        },
      };
      return [named('cardMatch', match), { Put: { TableName: tableName, Item: cardItems.toItem(card), ConditionExpression: itemDoesNotExist } }];
    },

    updateItem(card, expectedVersion) {
      return {
        Put: {
          TableName: tableName,
          Item: cardItems.toItem(card),
          ConditionExpression: 'version = :expected',
          ExpressionAttributeValues: { ':expected': expectedVersion },
        },
      };
    },

    async commit(items) {
      await conditional(() => db.send(new TransactWriteCommand({ TransactItems: items })), items);
    },

    async list(merchantId, mode, customerRef) {
      const cards = await readAll(merchantId, mode, (entry) => entry.status !== 'deleted');
      return customerRef === undefined ? cards : cards.filter((c) => c.customerRef === customerRef);
    },

    event: (merchantId, envelope) => outboxPut(tableName, merchantId, envelope),

    verificationItem(card) {
      return {
        Put: {
          TableName: tableName,
          Item: { ...keys.cardVerification(card.svcToken), ...keys.cardVerifications(card.gatewayAuthExpiresAt, card.svcToken), type: 'card_verification', merchantId: card.merchantId, svcToken: card.svcToken },
        },
      };
    },

    async verificationsEndingBetween(from, to) {
      const entries = await queryAll(db, tableName, { index: 'gsi1', partition: keys.cardVerifications('', '').gsi1pk, newestFirst: false, sortKey: { between: [from, to] } });
      return entries.map((entry) => (entry.pk as string).slice('CARD_VERIFICATION#'.length));
    },
  };
}
