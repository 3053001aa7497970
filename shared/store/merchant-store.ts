import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import type { Merchant, PagoMovilSetup } from '../domain/merchant.ts';
import { normaliseBranding, type BrandingInput, type LogoContentType, type MerchantLogo } from '../domain/merchant-branding.ts';
import { ConditionFailedError, conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { keys } from './keys.ts';
import { queryAll } from './query-page.ts';
import type { TransactItem } from './session-store.ts';

/** Merchants: configuration read on every authenticated request (through a cache), written by the admin CLI. */
export interface MerchantStore {
  get(merchantId: string): Promise<Merchant | null>;
  /** Creates the merchant; `alsoWrite` joins other items (its first keys) to the same transaction: all or none. */
  create(merchant: Merchant, options?: { alsoWrite?: TransactItem[] }): Promise<void>;
  update(merchantId: string, changes: Partial<Omit<Merchant, 'id' | 'createdAt'>>): Promise<Merchant>;
  /**
   * Sets one entry of a map of the merchant (`rateLimits.charge`, `testMode.bank_direct`) and nothing else, so writes
   * of other entries at the same time are never lost; creates the map when the item has none. Answers the merchant
   * as written; ConditionFailedError when there is no such merchant.
   *
   * @example
   * await merchants.setMapEntry('mer_123', 'rateLimits', 'charge', { perMinute: 60, perDay: 5000 });
   */
  setMapEntry<M extends 'rateLimits' | 'testMode' | 'gateways'>(merchantId: string, map: M, entry: keyof Merchant[M] & string, value: Merchant[M][keyof Merchant[M]]): Promise<Merchant>;
  /** Stores a gateway's bank credentials, already encrypted, with when they were loaded, and marks them loaded. */
  saveCredentials(merchantId: string, gateway: string, ciphertext: string, loadedAt: string): Promise<void>;
  getCredentials(merchantId: string, gateway: string): Promise<string | null>;
  /** When each gateway's credentials were loaded (one Query that reads the dates, never the ciphertext); credentials loaded before dates were kept have none. */
  credentialsLoadedAt(merchantId: string): Promise<Partial<Record<string, string>>>;
  /**
   * Sets or removes the business name and the logo, field by field (no read of the merchant first): absent fields
   * are left as they are, null removes. Checks and cleans the input first (normaliseBranding; BrandingError when
   * unusable). The logo's bytes and the merchant's pointer to them change in one transaction. Answers the merchant
   * as written; ConditionFailedError when there is no such merchant. `alsoWrite` joins other items to the same
   * transaction (an audit entry), so they are written exactly when the change is (an input that changes nothing
   * writes nothing, them included).
   *
   * @example
   * await merchants.updateBranding('mer_123', { businessName: 'Café Ávila', logo: { contentType: 'image/png', bytes } });
   * await merchants.updateBranding('mer_123', { logo: null }); // the checkout shows no logo; the name stays
   */
  updateBranding(merchantId: string, input: BrandingInput, options?: { alsoWrite?: TransactItem[] }): Promise<Merchant>;
  /** The logo's bytes when `hash` is the merchant's current logo, else null (an old URL answers 404). */
  getLogo(merchantId: string, hash: string): Promise<{ contentType: LogoContentType; bytes: Uint8Array } | null>;
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
  ...(typeof item.businessName === 'string' ? { businessName: item.businessName } : {}),
  ...(item.logo ? { logo: item.logo as MerchantLogo } : {}),
  ...(item.pagoMovil ? { pagoMovil: item.pagoMovil as PagoMovilSetup } : {}),
});

/** 128 bits of the content's SHA-256: the logo URL's cache key. */
const logoHash = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

export function createMerchantStore(db: DynamoDBDocumentClient, tableName: string): MerchantStore {
  const credentialsKey = (merchantId: string, gateway: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `CREDENTIALS#${gateway}` });
  /** The merchant as a write just left it (a consistent read: the caller shows what it changed). */
  const readBack = async (merchantId: string): Promise<Merchant> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.merchant(merchantId), ConsistentRead: true }));
    if (!Item) throw new ConditionFailedError();
    return toMerchant(Item);
  };
  return {
    async get(merchantId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.merchant(merchantId) }));
      return Item ? toMerchant(Item) : null;
    },
    async create(merchant, { alsoWrite = [] } = {}) {
      const put = { TableName: tableName, Item: { ...keys.merchant(merchant.id), type: 'merchant', ...merchant }, ConditionExpression: itemDoesNotExist };
      if (alsoWrite.length) await conditional(() => db.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...alsoWrite] })));
      else await conditional(() => db.send(new PutCommand(put)));
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
    async setMapEntry(merchantId, map, entry, value) {
      const write = (update: string, condition: string, values: Record<string, unknown>) =>
        conditional(() =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.merchant(merchantId),
              UpdateExpression: update,
              ConditionExpression: `${itemExists} AND ${condition}`,
              ExpressionAttributeNames: { '#map': map, ...(update.includes('#entry') ? { '#entry': entry } : {}) },
              ExpressionAttributeValues: values,
              ReturnValues: 'ALL_NEW',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          ),
        );
      // The entry alone when the map exists; else the map with the entry, unless another write created it meanwhile.
      for (;;) {
        try {
          return toMerchant((await write('SET #map.#entry = :value', 'attribute_exists(#map)', { ':value': value })).Attributes!);
        } catch (error) {
          if (!(error instanceof ConditionFailedError) || !error.existing) throw error;
        }
        try {
          return toMerchant((await write('SET #map = :map', 'attribute_not_exists(#map)', { ':map': { [entry]: value } })).Attributes!);
        } catch (error) {
          if (!(error instanceof ConditionFailedError) || !error.existing) throw error;
        }
      }
    },
    async saveCredentials(merchantId, gateway, ciphertext, loadedAt) {
      // One transaction: the flag never says "loaded" without the credentials, nor the reverse.
      await conditional(() =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: { ...credentialsKey(merchantId, gateway), type: 'bank_credentials', ciphertext, loadedAt } } },
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
    async updateBranding(merchantId, input, { alsoWrite = [] } = {}) {
      const change = normaliseBranding(input);
      const set: string[] = [];
      const remove: string[] = [];
      const values: Record<string, unknown> = {};
      if (change.businessName === null) remove.push('businessName');
      else if (change.businessName !== undefined) {
        set.push('businessName = :name');
        values[':name'] = change.businessName;
      }
      const logoKey = keys.merchantLogo(merchantId);
      const logoWrites: TransactItem[] = [];
      if (change.logo === null) {
        remove.push('logo');
        logoWrites.push({ Delete: { TableName: tableName, Key: logoKey } });
      } else if (change.logo !== undefined) {
        const logo: MerchantLogo = { hash: logoHash(change.logo.bytes), contentType: change.logo.contentType, sizeBytes: change.logo.bytes.length };
        set.push('logo = :logo');
        values[':logo'] = logo;
        logoWrites.push({ Put: { TableName: tableName, Item: { ...logoKey, type: 'merchant_logo', ...logo, bytes: change.logo.bytes } } });
      }
      if (set.length === 0 && remove.length === 0) return readBack(merchantId);
      const update = {
        TableName: tableName,
        Key: keys.merchant(merchantId),
        UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].join(' ').trim(),
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
        ConditionExpression: itemExists,
      };
      if (logoWrites.length === 0 && alsoWrite.length === 0) {
        const { Attributes } = await conditional(() => db.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' })));
        return toMerchant(Attributes!);
      }
      // One transaction: the merchant never points at bytes that are not there, nor the reverse.
      await conditional(() => db.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...logoWrites, ...alsoWrite] })));
      return readBack(merchantId);
    },
    async getLogo(merchantId, hash) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.merchantLogo(merchantId) }));
      if (!Item || Item.hash !== hash) return null;
      return { contentType: Item.contentType as LogoContentType, bytes: Item.bytes as Uint8Array };
    },
    async getCredentials(merchantId, gateway) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: credentialsKey(merchantId, gateway) }));
      return (Item?.ciphertext as string | undefined) ?? null;
    },
    async credentialsLoadedAt(merchantId) {
      const items = await queryAll(db, tableName, { partition: keys.merchant(merchantId).pk, sortKey: { beginsWith: 'CREDENTIALS#' }, newestFirst: false, attributes: ['sk', 'loadedAt'] });
      return Object.fromEntries(items.flatMap((item) => (typeof item.loadedAt === 'string' ? [[(item.sk as string).slice('CREDENTIALS#'.length), item.loadedAt]] : [])));
    },
  };
}
