import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideTestModeRequest } from '../../../shared/dashboard/test-mode-admin.ts';
import { createTestModeRequestStore } from '../../../shared/store/test-mode-request-store.ts';
import { hashApiKey } from '../../../shared/store/api-key-store.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, type SignedIn } from './dashboard-users.ts';

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('dashboard changes and their audit log', () => {
  let sandbox: TestSandbox;
  let merchantId: string;
  let keys: Awaited<ReturnType<TestSandbox['newMerchant']>>['keys'];
  let admin: SignedIn;
  let developer: SignedIn;
  let reader: SignedIn;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ merchant: { id: merchantId }, keys } = await sandbox.newMerchant());
    admin = await signedInUser(sandbox, merchantId, 'admin');
    developer = await signedInUser(sandbox, merchantId, 'developer');
    reader = await signedInUser(sandbox, merchantId, 'read_only');
  });
  afterAll(() => sandbox.stop());

  /** The admin CLI's stores, over the sandbox's table. */
  const platformTeam = () => ({ testModeRequests: createTestModeRequestStore(sandbox.deps.db, sandbox.deps.config.tableName) });
  const auditLog = async () => (await admin.request('GET', '/v1/dashboard/audit-log?limit=100')).body.data as { action: string; target: string; userId: string; email: string; detail: Record<string, unknown> }[];

  it('rolls a key: the new secret is answered once, works, the old one is revoked, the list shows hints only', async () => {
    // The live secret key moves money: an admin rolls it (a developer is refused, money-moving-keys.test.ts).
    const oldId = hashApiKey(keys.secretLive);
    const rolled = await admin.request('POST', `/v1/dashboard/keys/${oldId}/roll`);
    expect(rolled.status, rolled.text).toBe(201);
    const secret = rolled.body.secret as string;
    expect(secret).toMatch(/^sk_live_/);
    expect(rolled.body.key).toMatchObject({ kind: 'secret', mode: 'live', prefix: 'sk_live_', last4: secret.slice(-4), status: 'active' });

    const list = await developer.request('GET', '/v1/dashboard/keys');
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain(keys.secretLive);
    const byId = new Map((list.body.data as { id: string; status: string }[]).map((k) => [k.id, k]));
    expect(byId.get(oldId)?.status).toBe('revoked');
    expect(byId.get(rolled.body.key.id)?.status).toBe('active');

    // The key cache (30 s) is passed by the sandbox clock.
    sandbox.advance(31);
    expect((await sandbox.request('GET', '/v1/sessions', { key: secret })).status).toBe(200);
    expect((await sandbox.request('GET', '/v1/sessions', { key: keys.secretLive })).status).toBe(401);
    expect((await admin.request('POST', `/v1/dashboard/keys/${oldId}/roll`)).status).toBe(409);

    const entry = (await auditLog()).find((e) => e.action === 'key.rolled');
    expect(entry).toMatchObject({ target: oldId, userId: admin.userId, email: admin.email });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it('revokes a key and records it; revoking again changes nothing', async () => {
    const id = hashApiKey(keys.restrictedTest);
    const revoked = await developer.request('POST', `/v1/dashboard/keys/${id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.status).toBe('revoked');
    expect((await developer.request('POST', `/v1/dashboard/keys/${id}/revoke`)).status).toBe(200);
    expect((await auditLog()).filter((e) => e.action === 'key.revoked' && e.target === id)).toHaveLength(1);
  });

  it('refuses a key of another merchant as missing', async () => {
    const other = await sandbox.newMerchant();
    expect((await developer.request('POST', `/v1/dashboard/keys/${hashApiKey(other.keys.secretTest)}/revoke`)).status).toBe(404);
  });

  it('loads bank credentials write-only: stored sealed, shown only as loaded, recorded without their content', async () => {
    const put = await admin.request('PUT', '/v1/dashboard/bank-credentials/bank_direct', { body: { apiKey: 'bank-secret-value-123', merchantCode: 'M-1' } });
    expect(put.status, put.text).toBe(200);
    const settings = await reader.request('GET', '/v1/dashboard/settings');
    expect(settings.body.credentials.bank_direct).toEqual({ loaded: true, loadedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
    expect(settings.body.credentials.bank_otp).toEqual({ loaded: false, loadedAt: null });
    expect(settings.text).not.toContain('bank-secret-value-123');
    const stored = await sandbox.deps.merchants.getCredentials(merchantId, 'bank_direct');
    expect(stored).toBeTruthy();
    expect(stored).not.toContain('bank-secret-value-123');
    const log = await auditLog();
    expect(log.find((e) => e.action === 'bank_credentials.loaded')).toMatchObject({ target: 'bank_direct', userId: admin.userId });
    expect(JSON.stringify(log)).not.toContain('bank-secret-value-123');
    expect((await admin.request('PUT', '/v1/dashboard/bank-credentials/bank_direct', { body: {} })).status).toBe(400);
  });

  it('sets the business name and logo the checkout then shows', async () => {
    const res = await admin.request('PATCH', '/v1/dashboard/settings', { body: { businessName: 'Café Ávila', logo: { contentType: 'image/png', dataBase64: PNG.toString('base64') } } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.businessName).toBe('Café Ávila');
    expect(res.body.logoUrl).toMatch(new RegExp(`^/v1/checkout/logos/${merchantId}/[0-9a-f]{32}$`));
    sandbox.advance(31);
    const session = await openSession(sandbox, keys.secretTest);
    const checkout = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(checkout.body.merchant).toMatchObject({ businessName: 'Café Ávila', logoUrl: res.body.logoUrl });
    const logo = await sandbox.request('GET', res.body.logoUrl);
    expect(logo.status).toBe(200);
    expect((await auditLog()).find((e) => e.action === 'settings.updated')?.detail).toMatchObject({ businessName: 'Café Ávila' });
    const bad = await admin.request('PATCH', '/v1/dashboard/settings', { body: { logo: { contentType: 'image/png', dataBase64: Buffer.from('<svg/>').toString('base64') } } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('logo');
  });

  it('asks for test mode; the platform team decides; the state shows to every role', async () => {
    const refused = await admin.request('POST', '/v1/dashboard/test-mode-requests', { body: { gateway: 'card_processor', enabled: true } });
    expect(refused.status).toBe(409);
    const asked = await admin.request('POST', '/v1/dashboard/test-mode-requests', { body: { gateway: 'bank_direct', enabled: false } });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body.testMode.bank_direct).toMatchObject({ state: 'on', request: { enabled: false, status: 'pending', requestedBy: admin.email } });
    await decideTestModeRequest(platformTeam(), merchantId, 'bank_direct', true, sandbox.clock.now());
    const after = await reader.request('GET', '/v1/dashboard/settings');
    expect(after.body.testMode.bank_direct).toMatchObject({ state: 'off', request: { status: 'approved' } });
    expect((await sandbox.deps.merchants.get(merchantId))?.testMode.bank_direct).toBe(false);
    expect((await auditLog()).find((e) => e.action === 'test_mode.requested')).toMatchObject({ target: 'bank_direct', detail: { enabled: false } });
    await admin.request('POST', '/v1/dashboard/test-mode-requests', { body: { gateway: 'bank_direct', enabled: true } });
    await decideTestModeRequest(platformTeam(), merchantId, 'bank_direct', true, sandbox.clock.now());
  });

  it('invites, changes and removes users, never the last admin, and records each', async () => {
    const invited = await admin.request('POST', '/v1/dashboard/users', { body: { email: `New.User-${Date.now()}@Example.com`, role: 'read_only' } });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.temporaryPassword).toBeTruthy();
    expect(invited.body.user.email).toBe(invited.body.user.email.toLowerCase());
    const id = invited.body.user.id as string;
    expect((await admin.request('POST', '/v1/dashboard/users', { body: { email: invited.body.user.email, role: 'admin' } })).status).toBe(409);
    expect((await admin.request('PATCH', `/v1/dashboard/users/${id}`, { body: { role: 'developer' } })).body.user.role).toBe('developer');
    expect((await admin.request('PATCH', `/v1/dashboard/users/${admin.userId}`, { body: { role: 'developer' } })).body.code).toBe('last_admin');
    expect((await admin.request('DELETE', `/v1/dashboard/users/${admin.userId}`)).status).toBe(409);
    expect((await admin.request('DELETE', `/v1/dashboard/users/${id}`)).status).toBe(200);
    const list = await admin.request('GET', '/v1/dashboard/users');
    expect((list.body.data as { id: string }[]).map((u) => u.id)).not.toContain(id);
    const actions = (await auditLog()).filter((e) => e.target === id).map((e) => e.action);
    expect(actions.sort()).toEqual(['user.invited', 'user.removed', 'user.updated']);
    expect(JSON.stringify(await auditLog())).not.toContain(invited.body.temporaryPassword);
  });

  it("a removed user's token stops working at once", async () => {
    const user = await signedInUser(sandbox, merchantId, 'developer');
    expect((await user.request('GET', '/v1/dashboard/me')).status).toBe(200);
    expect((await admin.request('DELETE', `/v1/dashboard/users/${user.userId}`)).status).toBe(200);
    expect((await user.request('GET', '/v1/dashboard/me')).status).toBe(401);
  });

  it('records changes made through the reused routes (endpoint created, sample sent), not a refused one', async () => {
    const endpoint = await developer.request('POST', '/v1/webhooks/endpoints', { mode: 'test', body: { url: 'https://example.com/hooks' } });
    expect(endpoint.status, endpoint.text).toBe(201);
    expect((await developer.request('POST', `/v1/webhooks/endpoints/${endpoint.body.id}/test?type=charge.approved`, { mode: 'test' })).status).toBe(202);
    const failed = await reader.request('DELETE', `/v1/webhooks/endpoints/${endpoint.body.id}`, { mode: 'test' });
    expect(failed.status).toBe(403);
    const log = await auditLog();
    expect(log.find((e) => e.action === 'webhook_endpoint.created')).toMatchObject({ target: endpoint.body.id, userId: developer.userId });
    expect(log.find((e) => e.action === 'webhook.sample_sent')).toMatchObject({ target: endpoint.body.id, detail: { type: 'charge.approved' } });
    expect(JSON.stringify(log)).not.toContain(endpoint.body.secret);
    expect(log.filter((e) => e.action === 'webhook_endpoint.deleted')).toHaveLength(0);
  });

  it("rotates an endpoint's signing secret: the new one shown once, stored sealed, recorded without it", async () => {
    const endpoint = await developer.request('POST', '/v1/webhooks/endpoints', { mode: 'test', body: { url: 'https://example.com/rotated' } });
    const rotated = await developer.request('POST', `/v1/dashboard/webhook-endpoints/${endpoint.body.id}/rotate-secret`, { mode: 'test' });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.body.secret);
    const stored = (await sandbox.deps.webhookEndpoints.get(endpoint.body.id))!;
    expect(stored.secretCiphertext).not.toContain(rotated.body.secret);
    expect(await sandbox.deps.secretBox.decrypt(stored.secretCiphertext, { merchantId, endpointId: stored.id, purpose: 'webhook_signing_secret' })).toBe(rotated.body.secret);
    expect((await developer.request('GET', `/v1/webhooks/endpoints/${endpoint.body.id}`, { mode: 'test' })).text).not.toContain(rotated.body.secret);
    expect((await developer.request('POST', `/v1/dashboard/webhook-endpoints/${endpoint.body.id}/rotate-secret`, { mode: 'live' })).status).toBe(404);
    const entry = (await auditLog()).find((e) => e.action === 'webhook_endpoint.secret_rotated');
    expect(entry).toMatchObject({ target: endpoint.body.id, userId: developer.userId });
    expect(JSON.stringify(await auditLog())).not.toContain(rotated.body.secret);
  });

  it('finds a declined payment by the last four and shows why it failed, with its webhook deliveries', async () => {
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 0 });
    await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });
    const other = await openSession(sandbox, keys.secretTest);
    await checkoutCharge(sandbox, other.reference, { card: card(TEST_CARDS.visa) });

    const found = await reader.request('GET', '/v1/dashboard/payments?lastFour=0002', { mode: 'test' });
    expect(found.status, found.text).toBe(200);
    expect(found.body.data.map((p: { reference: string }) => p.reference)).toEqual([session.reference]);
    expect(found.body.data[0]).toMatchObject({ kind: 'session', lastFour: '0002', test: true });

    const all = await reader.request('GET', '/v1/dashboard/payments?limit=1', { mode: 'test' });
    expect(all.body.data[0].reference).toBe(other.reference);
    expect(all.body.hasMore).toBe(true);
    const next = await reader.request('GET', `/v1/dashboard/payments?limit=1&cursor=${all.body.nextCursor}`, { mode: 'test' });
    expect(next.body.data[0].reference).toBe(session.reference);

    // The endpoint made by the test before is subscribed to every event: the decline's delivery belongs to this payment.
    await sandbox.background.drain();
    const detail = await reader.request('GET', `/v1/dashboard/payments/${session.reference}`, { mode: 'test' });
    expect(detail.status).toBe(200);
    expect(detail.body.deliveries.map((d: { eventType: string }) => d.eventType)).toContain('charge.declined');
    expect(detail.body.deliveries.every((d: { attempts: unknown[] }) => Array.isArray(d.attempts))).toBe(true);
    expect(detail.body.session.reference).toBe(session.reference);
    expect(detail.body.transactions[0]).toMatchObject({ status: 'declined', declineReason: expect.any(String), trace: expect.any(Array) });
    expect((await reader.request('GET', `/v1/dashboard/payments/${session.reference}`, { mode: 'live' })).status).toBe(404);
    expect((await reader.request('GET', `/v1/dashboard/payments?query=${session.reference}`, { mode: 'test' })).body.data).toHaveLength(1);
  });
});
