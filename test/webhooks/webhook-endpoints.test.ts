import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsOfMerchant } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('webhook endpoints API', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const create = (key: string, body: Record<string, unknown>) => sandbox.request('POST', '/v1/webhooks/endpoints', { key, body });

  it('shows the whsec_ secret once, stores it and the credentials only encrypted, and returns flags', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const created = await create(keys.secretTest, {
      url: 'https://merchant.example/hooks',
      authType: 'basic',
      authUsername: 'hook-user-7781',
      authPassword: 'hook-pass-9932',
      description: 'orders',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^we_/),
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{24}$/),
      url: 'https://merchant.example/hooks',
      enabledEvents: [],
      status: 'enabled',
      authType: 'basic',
      hasBasicAuth: true,
      hasAuthToken: false,
      hasOAuthClientSecret: false,
      description: 'orders',
    });
    const read = await sandbox.request('GET', `/v1/webhooks/endpoints/${created.body.id}`, { key: keys.secretTest });
    const listed = await sandbox.request('GET', '/v1/webhooks/endpoints', { key: keys.secretTest });
    for (const shown of [read.text, listed.text]) {
      expect(shown).not.toContain(created.body.secret);
      expect(shown).not.toContain('hook-pass-9932');
      expect(shown).not.toContain('hook-user-7781');
    }
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    const stored = JSON.stringify(await itemsOfMerchant(merchant.id));
    expect(stored).not.toContain(created.body.secret);
    expect(stored).not.toContain('hook-pass-9932');
    expect(stored).not.toContain('hook-user-7781');
  });

  it('validates the fields each authType needs and refuses the others', async () => {
    const { keys } = await sandbox.newMerchant();
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'http://merchant.example/hooks' }, 'url'],
      [{ url: 'https://10.0.0.5/hooks' }, 'url'],
      [{ url: 'https://169.254.169.254/latest' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'https://m.example/h', authType: 'bearer' }, 'authToken'],
      [{ url: 'https://m.example/h', authType: 'basic', authUsername: 'u' }, 'authPassword'],
      [{ url: 'https://m.example/h', authType: 'api_key', authToken: 't' }, 'authHeaderName'],
      [{ url: 'https://m.example/h', authType: 'api_key', authToken: 't', authHeaderName: 'Authorization' }, 'authHeaderName'],
      [{ url: 'https://m.example/h', authType: 'oauth2', oauthClientId: 'c', oauthClientSecret: 's' }, 'oauthTokenUrl'],
      [{ url: 'https://m.example/h', authToken: 'stray' }, 'authToken'],
      [{ url: 'https://m.example/h', enabledEvents: ['charge.nonsense'] }, 'enabledEvents.0'],
      [{ url: 'https://m.example/h', authType: 'digest' }, 'authType'],
    ];
    for (const [body, field] of cases) {
      const res = await create(keys.secretTest, body);
      expect({ body, status: res.status, field: res.body.field }).toEqual({ body, status: 400, field });
    }
  });

  it('PATCH keeps omitted fields, rotates a credential, deletes it with "" and disables the endpoint', async () => {
    const { keys } = await sandbox.newMerchant();
    const created = await create(keys.secretTest, { url: 'https://m.example/h', authType: 'bearer', authToken: 'first', enabledEvents: ['session.expired'] });
    const id = created.body.id as string;
    const patch = (body: Record<string, unknown>) => sandbox.request('PATCH', `/v1/webhooks/endpoints/${id}`, { key: keys.secretTest, body });

    const rotated = await patch({ authToken: 'second' });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ url: 'https://m.example/h', authType: 'bearer', hasAuthToken: true, enabledEvents: ['session.expired'] });

    const emptied = await patch({ authToken: '' });
    expect(emptied).toMatchObject({ status: 400, body: { field: 'authToken' } });

    const switched = await patch({ authType: 'none', authToken: '', status: 'disabled', description: 'paused' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ authType: 'none', hasAuthToken: false, status: 'disabled', description: 'paused', url: 'https://m.example/h' });
    expect(switched.body).not.toHaveProperty('secret');

    const deleted = await sandbox.request('DELETE', `/v1/webhooks/endpoints/${id}`, { key: keys.secretTest });
    expect(deleted).toMatchObject({ status: 200, body: { id, deleted: true } });
    expect((await sandbox.request('GET', `/v1/webhooks/endpoints/${id}`, { key: keys.secretTest })).status).toBe(404);
  });

  it('refuses read-only keys on every change and hides other merchants and the other mode', async () => {
    const { keys } = await sandbox.newMerchant();
    const other = await sandbox.newMerchant();
    const created = await create(keys.secretTest, { url: 'https://m.example/h' });
    const id = created.body.id as string;
    const readOnly = keys.restrictedTest;
    expect((await create(readOnly, { url: 'https://m.example/h' })).status).toBe(403);
    expect((await sandbox.request('PATCH', `/v1/webhooks/endpoints/${id}`, { key: readOnly, body: { status: 'disabled' } })).status).toBe(403);
    expect((await sandbox.request('DELETE', `/v1/webhooks/endpoints/${id}`, { key: readOnly })).status).toBe(403);
    expect((await sandbox.request('POST', `/v1/webhooks/endpoints/${id}/test`, { key: readOnly })).status).toBe(403);
    expect((await sandbox.request('GET', `/v1/webhooks/endpoints/${id}`, { key: readOnly })).status).toBe(200);

    expect((await sandbox.request('GET', `/v1/webhooks/endpoints/${id}`, { key: other.keys.secretTest })).status).toBe(404);
    expect((await sandbox.request('GET', `/v1/webhooks/endpoints/${id}`, { key: keys.secretLive })).status).toBe(404);
    expect((await sandbox.request('GET', '/v1/webhooks/endpoints', { key: keys.secretLive })).body).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it('refuses a 17th endpoint in one mode with 409 endpoint_limit_reached, and counts each mode apart', async () => {
    const { keys } = await sandbox.newMerchant();
    for (let i = 0; i < 16; i++) expect((await create(keys.secretTest, { url: `https://merchant.example/hooks/${i}` })).status).toBe(201);

    const over = await create(keys.secretTest, { url: 'https://merchant.example/hooks/16' });
    const live = await create(keys.secretLive, { url: 'https://merchant.example/hooks/live' });

    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ statusCode: 409, code: 'endpoint_limit_reached' });
    expect(live.status).toBe(201);
    expect((await sandbox.request('GET', '/v1/webhooks/endpoints?limit=100', { key: keys.secretTest })).body).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await sandbox.request('GET', '/v1/webhooks/endpoints?limit=100', { key: keys.secretTest })).body.data).toHaveLength(16);
  });

  it('lists endpoints in creation order in the cursor envelope: limit (default 10), startingAfter the nextCursor', async () => {
    const { keys } = await sandbox.newMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await create(keys.secretTest, { url: `https://merchant.example/hooks/${i}` })).body.id);

    const first = await sandbox.request('GET', '/v1/webhooks/endpoints', { key: keys.secretTest });
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 10));
    expect(first.body).toMatchObject({ hasMore: true, nextCursor: ids[9] });
    const rest = await sandbox.request('GET', `/v1/webhooks/endpoints?startingAfter=${first.body.nextCursor}`, { key: keys.secretTest });
    expect(rest.body).toEqual({ data: [expect.objectContaining({ id: ids[10] }), expect.objectContaining({ id: ids[11] })], hasMore: false, nextCursor: null });
    const small = await sandbox.request('GET', `/v1/webhooks/endpoints?limit=5&startingAfter=${ids[4]}`, { key: keys.secretTest });
    expect(small.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(5, 10));
    expect((await sandbox.request('GET', '/v1/webhooks/endpoints?limit=101', { key: keys.secretTest })).status).toBe(400);
    expect((await sandbox.request('GET', '/v1/webhooks/endpoints?startingAfter=wd_x', { key: keys.secretTest })).status).toBe(400);
  });
});
