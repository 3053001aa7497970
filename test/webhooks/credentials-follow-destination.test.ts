/**
 * Issue 21 finding 3: a PATCH of only `url` (or only `oauthTokenUrl`) kept the stored bearer token, basic password
 * or OAuth client secret, and the next delivery (or …/test) sent them to the new destination; the audit entry of the
 * change had an empty detail. Now a change of where credentials go needs them again in the same request (400 naming
 * the field, nothing changed), and the audit entry records the old and new URLs, never a secret.
 * Also replays finding 13 at the API: transition forms of loopback are refused at registration in the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, type SignedIn } from '../dashboard/api/dashboard-users.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';

describe('webhook credentials follow their destination only when given again', () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  let secretKey: string;
  let admin: SignedIn;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startReceiver((request) => (request.path === '/token' ? { status: 200, body: JSON.stringify({ access_token: 'acc-1', expires_in: 3600 }) } : undefined));
    const { merchant, keys } = await sandbox.newMerchant();
    secretKey = keys.secretTest;
    admin = await signedInUser(sandbox, merchant.id, 'admin');
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await sandbox?.stop();
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: secretKey, body });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };
  const patch = (id: string, body: Record<string, unknown>) => sandbox.request('PATCH', `/v1/webhooks/endpoints/${id}`, { key: secretKey, body });
  const stored = (id: string) => sandbox.request('GET', `/v1/webhooks/endpoints/${id}`, { key: secretKey });
  const sampleTo = async (id: string) => {
    const before = receiver.received.length;
    const sent = await sandbox.request('POST', `/v1/webhooks/endpoints/${id}/test?type=charge.approved`, { key: secretKey });
    expect(sent.status, sent.text).toBeLessThan(300);
    await sandbox.background.drain();
    return receiver.received.slice(before).filter((r) => r.path !== '/token');
  };

  it.each<[string, Record<string, string>, string]>([
    ['bearer', { authType: 'bearer', authToken: 'bearer-secret-1' }, 'authToken'],
    ['basic', { authType: 'basic', authUsername: 'shop', authPassword: 'basic-secret-1' }, 'authUsername'],
    ['api_key', { authType: 'api_key', authHeaderName: 'X-Shop-Key', authToken: 'apikey-secret-1' }, 'authToken'],
    ['oauth2', { authType: 'oauth2', oauthTokenUrl: 'TOKEN', oauthClientId: 'client-1', oauthClientSecret: 'oauth-secret-1' }, 'oauthClientSecret'],
  ])('%s: a PATCH of only url is refused with 400 naming the credential, and the endpoint keeps its url', async (_type, auth, field) => {
    const id = await create({ url: `${receiver.url}/old`, ...auth, ...(auth.oauthTokenUrl && { oauthTokenUrl: `${receiver.url}/token` }) });
    const moved = await patch(id, { url: `${receiver.url}/attacker` });
    expect(moved.status, moved.text).toBe(400);
    expect(moved.body).toMatchObject({ code: 'parameter_invalid', field });
    expect(moved.body.message).toContain('url');
    expect((await stored(id)).body.url).toBe(`${receiver.url}/old`);
    const sent = await sampleTo(id);
    expect(sent.map((r) => r.path)).toEqual(['/old']);
  });

  it('oauth2: a PATCH of only oauthTokenUrl is refused naming oauthClientSecret; given again, the secret goes to the new token URL', async () => {
    const id = await create({ url: `${receiver.url}/hook`, authType: 'oauth2', oauthTokenUrl: `${receiver.url}/token`, oauthClientId: 'client-1', oauthClientSecret: 'oauth-secret-2' });
    const moved = await patch(id, { oauthTokenUrl: `${receiver.url}/token?elsewhere=1` });
    expect(moved.status, moved.text).toBe(400);
    expect(moved.body).toMatchObject({ code: 'parameter_invalid', field: 'oauthClientSecret' });
    expect((await stored(id)).body.oauthTokenUrl).toBe(`${receiver.url}/token`);
    const again = await patch(id, { oauthTokenUrl: `${receiver.url}/token?elsewhere=1`, oauthClientSecret: 'oauth-secret-3' });
    expect(again.status, again.text).toBe(200);
  });

  it('moves with the credentials given again, sends the new ones there, and keeps credentials when the url is unchanged', async () => {
    const id = await create({ url: `${receiver.url}/first`, authType: 'bearer', authToken: 'bearer-secret-2' });
    const moved = await patch(id, { url: `${receiver.url}/second`, authToken: 'bearer-secret-3' });
    expect(moved.status, moved.text).toBe(200);
    const [delivered] = await sampleTo(id);
    expect(delivered).toMatchObject({ path: '/second', headers: { authorization: 'Bearer bearer-secret-3' } });
    // The same url (or none) is no move: other fields change without the credentials.
    expect((await patch(id, { url: `${receiver.url}/second`, description: 'same place' })).status).toBe(200);
    expect((await patch(id, { description: 'still' })).status).toBe(200);
  });

  it('records the old and new urls in the audit entry of the change, never a secret', async () => {
    const created = await admin.request('POST', '/v1/webhooks/endpoints', { mode: 'test', body: { url: `${receiver.url}/a`, authType: 'oauth2', oauthTokenUrl: `${receiver.url}/token`, oauthClientId: 'client-9', oauthClientSecret: 'oauth-secret-9' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const changed = await admin.request('PATCH', `/v1/webhooks/endpoints/${id}`, { mode: 'test', body: { url: `${receiver.url}/b`, oauthTokenUrl: `${receiver.url}/token?v=2`, oauthClientSecret: 'oauth-secret-10' } });
    expect(changed.status, changed.text).toBe(200);
    const log = (await admin.request('GET', '/v1/dashboard/audit-log?limit=20')).body.data as { action: string; target: string; detail: Record<string, unknown> }[];
    const entry = log.find((e) => e.action === 'webhook_endpoint.updated' && e.target === id);
    expect(entry?.detail).toEqual({
      url: { from: `${receiver.url}/a`, to: `${receiver.url}/b` },
      oauthTokenUrl: { from: `${receiver.url}/token`, to: `${receiver.url}/token?v=2` },
      credentialsReplaced: ['oauthClientSecret'],
    });
    expect(JSON.stringify(log)).not.toContain('oauth-secret');
  });

  it('refuses transition forms of loopback at registration (finding 13), while the machine itself stays allowed', async () => {
    for (const url of ['https://[::127.0.0.1]/hook', 'https://[2002:7f00:1::]/hook', 'https://[64:ff9b::7f00:1]/hook']) {
      const res = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: secretKey, body: { url } });
      expect({ url, status: res.status, field: res.body.field }).toEqual({ url, status: 400, field: 'url' });
    }
    expect((await sandbox.request('POST', '/v1/webhooks/endpoints', { key: secretKey, body: { url: 'http://[::1]:9/hook' } })).status).toBe(201);
  });
});
