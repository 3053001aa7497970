import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminError, KeyNotFoundError, MerchantNotFoundError } from '../../shared/admin/errors.ts';
import { listKeys, revokeKey, rotateKey } from '../../shared/admin/key-admin.ts';
import { createMerchant } from '../../shared/admin/merchant-admin.ts';
import { hashApiKey, type ApiKeyRecord } from '../../shared/store/api-key-store.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('key administration', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const openSession = (key: string) => sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 1050, currency: 'VES' } });
  const now = () => new Date(sandbox.clock.now());

  it('rotate issues a new working key while the old one keeps working', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const rotated = await rotateKey(sandbox.deps, merchant.id, 'secret', 'test', now());

    expect(rotated.key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(rotated.keyHash).toBe(hashApiKey(rotated.key));
    expect(rotated.hint).toBe(`sk_test_...${rotated.key.slice(-4)}`);
    expect((await openSession(rotated.key)).status).toBe(201);
    expect((await openSession(keys.secretTest)).status).toBe(201);
  });

  it('revoke stops the old key once the key cache has expired; the rotated key goes on working', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const rotated = await rotateKey(sandbox.deps, merchant.id, 'secret', 'test', now());
    expect((await openSession(keys.secretTest)).status).toBe(201);

    const revoked = await revokeKey(sandbox.deps, merchant.id, { key: keys.secretTest });
    expect(revoked).toMatchObject({ keyHash: hashApiKey(keys.secretTest), status: 'revoked' });
    sandbox.advance(31);

    const refused = await openSession(keys.secretTest);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_api_key');
    expect((await openSession(rotated.key)).status).toBe(201);
  });

  it('revokes by hash, as keys list shows it, and only a key of that merchant', async () => {
    const mine = await sandbox.newMerchant();
    const theirs = await sandbox.newMerchant();

    await expect(revokeKey(sandbox.deps, mine.merchant.id, { key: theirs.keys.secretLive })).rejects.toThrow(KeyNotFoundError);
    await expect(revokeKey(sandbox.deps, mine.merchant.id, { keyHash: hashApiKey(theirs.keys.secretLive) })).rejects.toThrow(KeyNotFoundError);
    expect((await sandbox.deps.apiKeys.get(hashApiKey(theirs.keys.secretLive)))!.status).toBe('active');

    const live = (await listKeys(sandbox.deps, mine.merchant.id)).find((k) => k.kind === 'secret' && k.mode === 'live')!;
    await revokeKey(sandbox.deps, mine.merchant.id, { keyHash: live.keyHash.toUpperCase() });
    expect((await sandbox.deps.apiKeys.get(hashApiKey(mine.keys.secretLive)))!.status).toBe('revoked');
  });

  it('refuses what is neither a key nor a hash', async () => {
    const { merchant } = await sandbox.newMerchant();
    await expect(revokeKey(sandbox.deps, merchant.id, { key: 'sk_test_short' })).rejects.toThrow(/not an API key/);
    await expect(revokeKey(sandbox.deps, merchant.id, { keyHash: 'abc' })).rejects.toThrow(AdminError);
  });

  it('lists every key with hint, kind, mode and status, oldest first, never a clear key', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    sandbox.advance(1);
    const rotated = await rotateKey(sandbox.deps, merchant.id, 'restricted', 'live', now());
    await revokeKey(sandbox.deps, merchant.id, { key: keys.restrictedLive });

    const listed = await listKeys(sandbox.deps, merchant.id);

    expect(listed).toHaveLength(7);
    expect(listed.at(-1)).toMatchObject({ keyHash: rotated.keyHash, kind: 'restricted', mode: 'live', status: 'active', hint: rotated.hint });
    expect(listed.find((k) => k.keyHash === hashApiKey(keys.restrictedLive))!.status).toBe('revoked');
    expect(listed.filter((k) => k.status === 'active')).toHaveLength(6);
    const shown = JSON.stringify(listed);
    for (const key of [...Object.values(keys), rotated.key]) expect(shown).not.toContain(key);
  });

  it('refuses an unknown merchant', async () => {
    await expect(rotateKey(sandbox.deps, 'mer_unknown', 'secret', 'test', now())).rejects.toThrow(MerchantNotFoundError);
    await expect(listKeys(sandbox.deps, 'mer_unknown')).rejects.toThrow(MerchantNotFoundError);
  });
});

describe('merchant creation', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('writes the merchant and its six keys together: each key works, and a key that cannot be written leaves nothing', async () => {
    const { merchant, keys } = await createMerchant(sandbox.deps, { name: 'Tienda completa', now: new Date(sandbox.clock.now()) });
    expect(Object.keys(keys).sort()).toEqual(['publishableLive', 'publishableTest', 'restrictedLive', 'restrictedTest', 'secretLive', 'secretTest']);
    expect((await listKeys(sandbox.deps, merchant.id)).map((k) => `${k.kind} ${k.mode}`).sort()).toEqual(
      ['publishable live', 'publishable test', 'restricted live', 'restricted test', 'secret live', 'secret test'],
    );
    for (const key of Object.values(keys)) expect((await sandbox.deps.apiKeys.get(hashApiKey(key)))?.merchantId).toBe(merchant.id);

    // The last key's write is refused (its condition cannot hold): the merchant and the other five are not written either.
    const attempted: ApiKeyRecord[] = [];
    const apiKeys = {
      ...sandbox.deps.apiKeys,
      createItem: (record: ApiKeyRecord) => {
        attempted.push(record);
        const item = sandbox.deps.apiKeys.createItem(record);
        return attempted.length === 6 ? { Put: { ...item.Put!, ConditionExpression: 'attribute_exists(pk)' } } : item;
      },
    };
    await expect(createMerchant({ ...sandbox.deps, apiKeys }, { name: 'Tienda a medias', now: new Date(sandbox.clock.now()) })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(attempted).toHaveLength(6);
    expect(await sandbox.deps.merchants.get(attempted[0]!.merchantId)).toBeNull();
    for (const record of attempted) expect(await sandbox.deps.apiKeys.get(record.keyHash)).toBeNull();
  });
});
