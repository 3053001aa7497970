/**
 * Issue 21 finding 2: rolling a key was a developer action that answered the new sk_ secret, with which the
 * developer refunded (admin-only in the dashboard); the audit log showed only key.rolled. Now a live secret key (the
 * one that moves real money) is rolled and revoked by admins only, as on Stripe; developers keep test, restricted
 * and publishable keys. A key minted from the dashboard remembers who minted it, and every audited change made with
 * it (a refund among them) is recorded under that user, naming the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../shared/store/api-key-store.ts';
import { paidTransaction, refund } from '../../refunds/support.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, type SignedIn } from './dashboard-users.ts';

type Entry = { action: string; target: string; userId: string; email: string; detail: Record<string, unknown> };

describe('money-moving keys belong to roles that may move money, and what a key does is the minting user\'s', () => {
  let sandbox: TestSandbox;
  let keys: Awaited<ReturnType<TestSandbox['newMerchant']>>['keys'];
  let admin: SignedIn;
  let developer: SignedIn;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const created = await sandbox.newMerchant();
    keys = created.keys;
    admin = await signedInUser(sandbox, created.merchant.id, 'admin');
    developer = await signedInUser(sandbox, created.merchant.id, 'developer');
  });
  afterAll(() => sandbox?.stop());

  const auditLog = async () => (await admin.request('GET', '/v1/dashboard/audit-log?limit=100')).body.data as Entry[];

  it('refuses a developer rolling or revoking the live secret key, changing and recording nothing', async () => {
    const id = hashApiKey(keys.secretLive);
    for (const action of ['roll', 'revoke']) {
      const res = await developer.request('POST', `/v1/dashboard/keys/${id}/${action}`);
      expect({ action, status: res.status, code: res.body.code }).toEqual({ action, status: 403, code: 'insufficient_permissions' });
      expect(res.text).not.toMatch(/sk_live_[0-9A-Za-z]{20,}/);
    }
    expect((await sandbox.deps.apiKeys.get(id))?.status).toBe('active');
    expect((await auditLog()).filter((e) => e.target === id)).toEqual([]);
    expect((await sandbox.request('GET', '/v1/sessions', { key: keys.secretLive })).status).toBe(200);
  });

  it('lets a developer roll test, restricted and publishable keys', async () => {
    for (const key of [keys.restrictedLive, keys.publishableLive]) {
      const res = await developer.request('POST', `/v1/dashboard/keys/${hashApiKey(key)}/roll`);
      expect(res.status, res.text).toBe(201);
    }
  });

  it('records a refund made with a key a user minted under that user, naming the key; key.rolled names the new key', async () => {
    const rolled = await developer.request('POST', `/v1/dashboard/keys/${hashApiKey(keys.secretTest)}/roll`);
    expect(rolled.status, rolled.text).toBe(201);
    const minted = rolled.body.secret as string;
    expect((await auditLog()).find((e) => e.action === 'key.rolled' && e.target === hashApiKey(keys.secretTest))?.detail).toMatchObject({ newKeyId: hashApiKey(minted) });

    const { transaction } = await paidTransaction(sandbox, minted);
    const refunded = await refund(sandbox, minted, transaction.reference, { amountMinor: 400 });
    expect(refunded.status, refunded.text).toBeLessThan(300);
    const entry = (await auditLog()).find((e) => e.action === 'refund.created' && e.target === transaction.reference);
    expect(entry).toMatchObject({ userId: developer.userId, email: developer.email, detail: { apiKey: { id: hashApiKey(minted), hint: `sk_test_...${minted.slice(-4)}` } } });
    expect(JSON.stringify(await auditLog())).not.toContain(minted);
  });

  it('lets an admin roll the live secret key, and what the new key does is the admin\'s', async () => {
    const rolled = await admin.request('POST', `/v1/dashboard/keys/${hashApiKey(keys.secretLive)}/roll`);
    expect(rolled.status, rolled.text).toBe(201);
    const minted = rolled.body.secret as string;
    expect(minted).toMatch(/^sk_live_/);
    const created = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: minted, body: { url: 'https://hooks.example.com/live' } });
    expect(created.status, created.text).toBe(201);
    expect((await auditLog()).find((e) => e.action === 'webhook_endpoint.created' && e.target === created.body.id)).toMatchObject({ userId: admin.userId, email: admin.email });
  });

  it('records nothing new for keys the platform issued (no user minted them)', async () => {
    const other = await sandbox.newMerchant();
    const otherAdmin = await signedInUser(sandbox, other.merchant.id, 'admin');
    const made = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: other.keys.secretTest, body: { url: 'https://hooks.example.com/platform' } });
    expect(made.status).toBe(201);
    const log = (await otherAdmin.request('GET', '/v1/dashboard/audit-log?limit=100')).body.data as Entry[];
    expect(log.filter((e) => e.action === 'webhook_endpoint.created')).toEqual([]);
  });
});
