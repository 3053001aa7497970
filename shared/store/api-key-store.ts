import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TransactItem } from './session-store.ts';
import { createHash } from 'node:crypto';
import type { Mode } from '../domain/session-state.ts';
import { conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { keys } from './keys.ts';
import { itemsOf, queryAll } from './query-page.ts';

/** secret: sk_, full access. restricted: rk_, read-only. publishable: pk_, browser side. */
export type KeyKind = 'secret' | 'restricted' | 'publishable';

export interface ApiKeyRecord {
  keyHash: string;
  merchantId: string;
  mode: Mode;
  kind: KeyKind;
  status: 'active' | 'revoked';
  createdAt: string;
  /** Prefix and last four characters, enough to recognise a key in a listing. */
  hint: string;
  /** The dashboard user who minted the key (a roll); absent for keys the platform issued. */
  createdBy?: { userId: string; email: string };
}

const PREFIX_KIND: Record<string, KeyKind> = { sk: 'secret', rk: 'restricted', pk: 'publishable' };
const KEY_PATTERN = /^(sk|rk|pk)_(test|live)_[0-9A-Za-z]{24,64}$/;

/** Reads kind and mode from a key's prefix; null when it is not a key of ours at all. */
export function parseApiKey(key: string): { kind: KeyKind; mode: Mode } | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  return { kind: PREFIX_KIND[match[1]!]!, mode: match[2] as Mode };
}

/** Keys carry ~143 random bits, so a plain SHA-256 is a safe one-way lookup handle. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export const keyHint = (key: string): string => `${key.slice(0, key.indexOf('_', 3) + 1)}...${key.slice(-4)}`;

/** API keys: only their hashes are stored. */
export interface ApiKeyStore {
  get(keyHash: string): Promise<ApiKeyRecord | null>;
  create(record: ApiKeyRecord): Promise<void>;
  revoke(keyHash: string): Promise<ApiKeyRecord>;
  listForMerchant(merchantId: string): Promise<ApiKeyRecord[]>;
  /** The Put of a new key, for a transaction (a rolled key: the new one, the old one's revocation, the audit entry). */
  createItem(record: ApiKeyRecord): TransactItem;
  /** The revocation of an active key, for a transaction; its condition fails when the key is no longer active. */
  revokeItem(keyHash: string): TransactItem;
  /** Writes the items in one transaction (ConditionFailedError when a condition failed). */
  commit(items: TransactItem[]): Promise<void>;
}

const toRecord = (item: Record<string, unknown>): ApiKeyRecord => ({
  keyHash: item.keyHash as string,
  merchantId: item.merchantId as string,
  mode: item.mode as Mode,
  kind: item.kind as KeyKind,
  status: item.status as ApiKeyRecord['status'],
  createdAt: item.createdAt as string,
  hint: item.hint as string,
  ...(item.createdBy ? { createdBy: item.createdBy as NonNullable<ApiKeyRecord['createdBy']> } : {}),
});

export function createApiKeyStore(db: DynamoDBDocumentClient, tableName: string): ApiKeyStore {
  const keyItem = (record: ApiKeyRecord) => ({ ...keys.apiKey(record.keyHash), ...keys.merchantKeys(record.merchantId, record.createdAt, record.keyHash), type: 'api_key', ...record });
  return {
    async get(keyHash) {
      // Strongly consistent: a revocation is seen by the next read anywhere, so the key cache's lifetime is the bound.
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(keyHash), ConsistentRead: true }));
      return Item ? toRecord(Item) : null;
    },
    async create(record) {
      await conditional(() =>
        db.send(
          new PutCommand({
            TableName: tableName,
            Item: keyItem(record),
            ConditionExpression: itemDoesNotExist,
          }),
        ),
      );
    },
    async revoke(keyHash) {
      const { Attributes } = await conditional(() =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.apiKey(keyHash),
            UpdateExpression: 'SET #status = :revoked',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':revoked': 'revoked' },
            ConditionExpression: itemExists,
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      return toRecord(Attributes!);
    },
    createItem: (record) => ({ Put: { TableName: tableName, Item: keyItem(record), ConditionExpression: itemDoesNotExist } }),
    revokeItem: (keyHash) => ({
      Update: {
        TableName: tableName,
        Key: keys.apiKey(keyHash),
        UpdateExpression: 'SET #status = :revoked',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active' },
      },
    }),
    async commit(items) {
      await conditional(() => db.send(new TransactWriteCommand({ TransactItems: items })));
    },
    async listForMerchant(merchantId) {
      const entries = await queryAll(db, tableName, { index: 'gsi1', partition: keys.merchantKeys(merchantId, '', '').gsi1pk, newestFirst: false });
      return (await itemsOf(db, tableName, entries)).map(toRecord);
    },
  };
}
