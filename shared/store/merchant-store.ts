import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Merchant } from '../domain/merchant.ts';
import { conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { keys } from './keys.ts';

/** Merchants: configuration read on every authenticated request (through a cache), written by the admin CLI. */
export interface MerchantStore {
  get(merchantId: string): Promise<Merchant | null>;
  create(merchant: Merchant): Promise<void>;
  update(merchantId: string, changes: Partial<Omit<Merchant, 'id' | 'createdAt'>>): Promise<Merchant>;
  /** Stores a gateway's bank credentials, already encrypted, and marks them loaded. */
  saveCredentials(merchantId: string, gateway: string, ciphertext: string): Promise<void>;
  getCredentials(merchantId: string, gateway: string): Promise<string | null>;
}

const toMerchant = (item: Record<string, unknown>): Merchant => ({
  id: item.id as string,
  name: item.name as string,
  createdAt: item.createdAt as string,
  provisioned: item.provisioned as boolean,
  gateways: item.gateways as Merchant['gateways'],
  testMode: (item.testMode ?? {}) as Merchant['testMode'],
  credentialsLoaded: (item.credentialsLoaded ?? {}) as Merchant['credentialsLoaded'],
  rateLimits: (item.rateLimits ?? {}) as Merchant['rateLimits'],
});

export function createMerchantStore(db: DynamoDBDocumentClient, tableName: string): MerchantStore {
  const credentialsKey = (merchantId: string, gateway: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `CREDENTIALS#${gateway}` });
  return {
    async get(merchantId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.merchant(merchantId) }));
      return Item ? toMerchant(Item) : null;
    },
    async create(merchant) {
      await conditional(() =>
        db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.merchant(merchant.id), type: 'merchant', ...merchant },
            ConditionExpression: itemDoesNotExist,
          }),
        ),
      );
    },
    async update(merchantId, changes) {
      const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
      const { Attributes } = await conditional(() =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.merchant(merchantId),
            UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
            ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
            ConditionExpression: itemExists,
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      return toMerchant(Attributes!);
    },
    async saveCredentials(merchantId, gateway, ciphertext) {
      // One transaction: the flag never says "loaded" without the credentials, nor the reverse.
      await conditional(() =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: { ...credentialsKey(merchantId, gateway), type: 'bank_credentials', ciphertext } } },
              {
                Update: {
                  TableName: tableName,
                  Key: keys.merchant(merchantId),
                  UpdateExpression: 'SET credentialsLoaded.#g = :t',
                  ExpressionAttributeNames: { '#g': gateway },
                  ExpressionAttributeValues: { ':t': true },
                  ConditionExpression: itemExists,
                },
              },
            ],
          }),
        ),
      );
    },
    async getCredentials(merchantId, gateway) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: credentialsKey(merchantId, gateway) }));
      return (Item?.ciphertext as string | undefined) ?? null;
    },
  };
}
