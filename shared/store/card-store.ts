import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { GatewayId } from '../domain/merchant.ts';
import type { Mode } from '../domain/session-state.ts';
import { keys } from './keys.ts';

/** The fields of a stored card that sessions and charges read. The card number itself lives only encrypted. */
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

export interface CardReader {
  get(svcToken: string): Promise<StoredCardSummary | null>;
}

export function createCardReader(db: DynamoDBDocumentClient, tableName: string): CardReader {
  return {
    async get(svcToken) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.card(svcToken) }));
      return (Item as StoredCardSummary | undefined) ?? null;
    },
  };
}
