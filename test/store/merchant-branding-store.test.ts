import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { BrandingError } from '../../shared/domain/merchant-branding.ts';
import { defaultGateways, type Merchant } from '../../shared/domain/merchant.ts';
import { randomToken } from '../../shared/ids.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import { keys } from '../../shared/store/keys.ts';
import { createMerchantStore } from '../../shared/store/merchant-store.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { tableName } = testConnection();
const db = testDb();
const store = createMerchantStore(db, tableName);
afterAll(() => db.destroy());

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 9, 9]);

async function aMerchant(): Promise<Merchant> {
  const merchant: Merchant = {
    id: `mer_brand_${randomToken(10)}`,
    name: 'Inversiones Ávila C.A.',
    createdAt: new Date().toISOString(),
    provisioned: true,
    gateways: defaultGateways(),
    testMode: { bank_direct: true },
    credentialsLoaded: {},
    rateLimits: {},
  };
  await store.create(merchant);
  return merchant;
}

const logoItem = async (merchantId: string) => (await db.send(new GetCommand({ TableName: tableName, Key: keys.merchantLogo(merchantId), ConsistentRead: true }))).Item;

describe('MerchantStore.updateBranding', () => {
  it('sets the business name and a logo; the logo bytes live in their own item under a content hash', async () => {
    const merchant = await aMerchant();
    const updated = await store.updateBranding(merchant.id, { businessName: '  Café  Ávila ', logo: { contentType: 'image/png', bytes: PNG } });

    expect(updated.businessName).toBe('Café Ávila');
    expect(updated.logo).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{32}$/), contentType: 'image/png', sizeBytes: PNG.length });
    expect(await store.get(merchant.id)).toEqual(updated);
    expect(await store.getLogo(merchant.id, updated.logo!.hash)).toEqual({ contentType: 'image/png', bytes: PNG });
    // The merchant item holds only the pointer, never the bytes.
    const raw = (await db.send(new GetCommand({ TableName: tableName, Key: keys.merchant(merchant.id) }))).Item!;
    expect(raw.bytes).toBeUndefined();
  });

  it('a new logo gets a new hash and the old URL answers nothing; null removes the logo and its item', async () => {
    const merchant = await aMerchant();
    const first = await store.updateBranding(merchant.id, { logo: { bytes: PNG } });
    const second = await store.updateBranding(merchant.id, { logo: { bytes: JPEG } });
    expect(second.logo!.hash).not.toBe(first.logo!.hash);
    expect(await store.getLogo(merchant.id, first.logo!.hash)).toBeNull();
    expect((await store.getLogo(merchant.id, second.logo!.hash))?.contentType).toBe('image/jpeg');

    const removed = await store.updateBranding(merchant.id, { logo: null });
    expect(removed.logo).toBeUndefined();
    expect(await logoItem(merchant.id)).toBeUndefined();
    expect(await store.getLogo(merchant.id, second.logo!.hash)).toBeNull();
  });

  it('changes only the fields it is given: the name survives a logo change, the logo a name change, and null name falls back', async () => {
    const merchant = await aMerchant();
    await store.updateBranding(merchant.id, { businessName: 'Café Ávila' });
    const withLogo = await store.updateBranding(merchant.id, { logo: { bytes: PNG } });
    expect(withLogo.businessName).toBe('Café Ávila');
    const renamed = await store.updateBranding(merchant.id, { businessName: 'Panadería Ávila' });
    expect(renamed.logo).toEqual(withLogo.logo);
    const cleared = await store.updateBranding(merchant.id, { businessName: null });
    expect(cleared.businessName).toBeUndefined();
    expect(cleared).toMatchObject({ name: merchant.name, logo: withLogo.logo, testMode: merchant.testMode });
  });

  it('concurrent changes of different fields are all kept (field-level updates, no read-modify-write)', async () => {
    const merchant = await aMerchant();
    await Promise.all([
      store.updateBranding(merchant.id, { businessName: 'Café Ávila' }),
      store.updateBranding(merchant.id, { logo: { bytes: PNG } }),
      store.update(merchant.id, { provisioned: false }),
    ]);
    const read = await store.get(merchant.id);
    expect(read).toMatchObject({ businessName: 'Café Ávila', provisioned: false, logo: { contentType: 'image/png' } });
    expect(await store.getLogo(merchant.id, read!.logo!.hash)).not.toBeNull();
  });

  it('writes the items it is given with the change, in the same transaction, and none of them when the merchant is missing', async () => {
    const merchant = await aMerchant();
    const entry = (id: string) => ({ Put: { TableName: tableName, Item: { pk: `TEST_AUDIT#${id}`, sk: 'TEST_AUDIT', action: 'settings.updated' } } });
    const read = async (id: string) => (await db.send(new GetCommand({ TableName: tableName, Key: { pk: `TEST_AUDIT#${id}`, sk: 'TEST_AUDIT' }, ConsistentRead: true }))).Item;
    const [named, logo, missing] = [randomToken(8), randomToken(8), randomToken(8)];

    expect((await store.updateBranding(merchant.id, { businessName: 'Café Ávila' }, { alsoWrite: [entry(named)] })).businessName).toBe('Café Ávila');
    expect(await read(named)).toMatchObject({ action: 'settings.updated' });
    await store.updateBranding(merchant.id, { logo: { bytes: PNG } }, { alsoWrite: [entry(logo)] });
    expect(await read(logo)).toBeDefined();
    await expect(store.updateBranding(`mer_missing_${randomToken(8)}`, { businessName: 'Nadie' }, { alsoWrite: [entry(missing)] })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await read(missing)).toBeUndefined();
  });

  it('refuses bad input before writing anything, and an unknown merchant without creating it', async () => {
    const merchant = await aMerchant();
    await expect(store.updateBranding(merchant.id, { businessName: 'Café', logo: { bytes: new TextEncoder().encode('<svg/>') } })).rejects.toBeInstanceOf(BrandingError);
    expect((await store.get(merchant.id))?.businessName).toBeUndefined();

    const missing = `mer_missing_${randomToken(8)}`;
    await expect(store.updateBranding(missing, { businessName: 'Nadie', logo: { bytes: PNG } })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(store.updateBranding(missing, { businessName: 'Nadie' })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await store.get(missing)).toBeNull();
    expect(await logoItem(missing)).toBeUndefined();
  });
});
