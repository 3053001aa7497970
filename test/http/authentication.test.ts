import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, withoutRequestId } from '../support/assertions.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import { randomToken } from '../../shared/ids.ts';
import { hashApiKey } from '../../shared/store/api-key-store.ts';

const VALID = { amountMinor: 1050, currency: 'VES' } as const;

describe('Authentication', () => {
  let sandbox: TestSandbox;
  let keys: MerchantKeys;
  let reference: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ keys } = await sandbox.newMerchant());
    reference = (await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: VALID })).body.reference;
  });
  afterAll(() => sandbox.stop());

  const endpoints = () =>
    [
      ['POST', '/v1/sessions', VALID],
      ['GET', `/v1/sessions/${reference}`, undefined],
      ['GET', '/v1/sessions', undefined],
      ['POST', `/v1/sessions/${reference}/expire`, undefined],
    ] as const;

  describe('401 invalid_api_key', () => {
    it('for a missing key on every endpoint', async () => {
      for (const [method, path, body] of endpoints()) {
        const { message } = expectError(await sandbox.request(method, path, { body }), 401, 'invalid_api_key');
        expect(message).toContain('Authorization: Bearer');
      }
    });

    it.each<[string, () => string]>([
      ['an empty header', () => ''],
      ['the word Bearer alone', () => 'Bearer'],
      ['the key without the Bearer scheme', () => keys.secretTest],
      ['another scheme (Basic)', () => `Basic ${Buffer.from(`${keys.secretTest}:`).toString('base64')}`],
      ['two tokens after Bearer', () => `Bearer ${keys.secretTest} ${keys.secretTest}`],
      ['a key that is too short', () => 'Bearer sk_test_abc123'],
      ['an unknown prefix', () => `Bearer xk_test_${randomToken(32)}`],
      ['an unknown mode', () => `Bearer sk_prod_${randomToken(32)}`],
      ['a key with a character outside the alphabet', () => `Bearer ${keys.secretTest.slice(0, -1)}!`],
      ['a well-formed sk_test_ key that was never issued', () => `Bearer sk_test_${randomToken(32)}`],
      ['a well-formed sk_live_ key that was never issued', () => `Bearer sk_live_${randomToken(32)}`],
      ['a well-formed rk_test_ key that was never issued', () => `Bearer rk_test_${randomToken(32)}`],
      ['a valid key with one character changed', () => `Bearer ${keys.secretTest.slice(0, -1)}${keys.secretTest.endsWith('A') ? 'B' : 'A'}`],
    ])('for %s', async (_label, header) => {
      for (const [method, path, body] of endpoints()) {
        expectError(await sandbox.request(method, path, { body, headers: { authorization: header() } }), 401, 'invalid_api_key');
      }
    });

    it.each([
      ['pk_test_', 'publishableTest'],
      ['pk_live_', 'publishableLive'],
    ] as const)('for a publishable %s key, telling to use the secret key from the server', async (_prefix, keyName) => {
      for (const [method, path, body] of endpoints()) {
        const { message } = expectError(await sandbox.request(method, path, { key: keys[keyName], body }), 401, 'invalid_api_key');
        expect(message).toContain('sk_');
      }
    });

    it('comes before validation: an invalid body without a key is 401, not 400', async () => {
      expectError(await sandbox.request('POST', '/v1/sessions', { body: { amountMinor: -1 } }), 401, 'invalid_api_key');
    });

    it('is the same answer for another merchant\'s revoked key as for an unknown one (nothing leaks)', async () => {
      const unknown = await sandbox.request('GET', '/v1/sessions', { key: `sk_test_${randomToken(32)}` });
      const instant = await startTestSandbox({ keyCacheTtlMs: 0 });
      try {
        const { keys: other } = await instant.newMerchant();
        await instant.deps.apiKeys.revoke(hashApiKey(other.secretTest));
        const revoked = await instant.request('GET', '/v1/sessions', { key: other.secretTest });
        // Two sandboxes: each docUrl names its own port, and only that differs.
        const sameSite = (body: Record<string, unknown>) => ({ ...withoutRequestId(body), docUrl: new URL(String(body.docUrl)).pathname + new URL(String(body.docUrl)).hash });
        expect(sameSite(revoked.body)).toEqual(sameSite(unknown.body));
      } finally {
        await instant.stop();
      }
    });
  });

  describe('revoked keys', () => {
    it('answers 401 at once when the key cache is off', async () => {
      const instant = await startTestSandbox({ keyCacheTtlMs: 0 });
      try {
        const { keys: own } = await instant.newMerchant();
        expect((await instant.request('GET', '/v1/sessions', { key: own.secretTest })).status).toBe(200);
        await instant.deps.apiKeys.revoke(hashApiKey(own.secretTest));
        for (const [method, path, body] of endpoints()) {
          expectError(await instant.request(method, path, { key: own.secretTest, body }), 401, 'invalid_api_key');
        }
        // The merchant's other keys keep working.
        expect((await instant.request('GET', '/v1/sessions', { key: own.secretLive })).status).toBe(200);
        expect((await instant.request('POST', '/v1/sessions', { key: own.secretLive, body: VALID })).status).toBe(201);
      } finally {
        await instant.stop();
      }
    });

    it('keeps working for at most the 5 s revocation bound on the sandbox clock, then answers 401', async () => {
      const { keys: own } = await sandbox.newMerchant();
      expect((await sandbox.request('GET', '/v1/sessions', { key: own.secretTest })).status).toBe(200);
      await sandbox.deps.apiKeys.revoke(hashApiKey(own.secretTest));
      sandbox.advance(3);
      expect((await sandbox.request('GET', '/v1/sessions', { key: own.secretTest })).status).toBe(200);
      sandbox.advance(2);
      expectError(await sandbox.request('GET', '/v1/sessions', { key: own.secretTest }), 401, 'invalid_api_key');
    });

    it('answers 401 at once for a revoked key that was never used (nothing cached)', async () => {
      const { keys: own } = await sandbox.newMerchant();
      await sandbox.deps.apiKeys.revoke(hashApiKey(own.restrictedLive));
      expectError(await sandbox.request('GET', '/v1/sessions', { key: own.restrictedLive }), 401, 'invalid_api_key');
    });
  });

  describe('key kinds and modes', () => {
    it.each([
      ['sk_test_', 'secretTest', 'test'],
      ['sk_live_', 'secretLive', 'live'],
    ] as const)('a %s key creates, reads, lists and expires sessions of its mode', async (_prefix, keyName, mode) => {
      const created = await sandbox.request('POST', '/v1/sessions', { key: keys[keyName], body: VALID });
      expect(created.status).toBe(201);
      expect(created.body.mode).toBe(mode);
      expect((await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys[keyName] })).status).toBe(200);
      expect((await sandbox.request('GET', '/v1/sessions', { key: keys[keyName] })).status).toBe(200);
      expect((await sandbox.request('POST', `/v1/sessions/${created.body.reference}/expire`, { key: keys[keyName] })).status).toBe(200);
    });

    it.each([
      ['rk_test_', 'restrictedTest', 'secretTest'],
      ['rk_live_', 'restrictedLive', 'secretLive'],
    ] as const)('a read-only %s key reads and lists, and gets 403 insufficient_permissions on create and expire', async (_prefix, keyName, writer) => {
      const created = await sandbox.request('POST', '/v1/sessions', { key: keys[writer], body: VALID });
      const key = keys[keyName];
      expect((await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key })).body).toEqual(created.body);
      expect((await sandbox.request('GET', '/v1/sessions', { key })).status).toBe(200);

      const { message } = expectError(await sandbox.request('POST', '/v1/sessions', { key, body: VALID }), 403, 'insufficient_permissions');
      expect(message).toContain('read-only');
      expectError(await sandbox.request('POST', `/v1/sessions/${created.body.reference}/expire`, { key }), 403, 'insufficient_permissions');
      expect((await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key })).body.status).toBe('created');
    });

    it('refuses a read-only key on a write route before validating the body (403, not 400)', async () => {
      expectError(await sandbox.request('POST', '/v1/sessions', { key: keys.restrictedTest, body: { amountMinor: -1 } }), 403, 'insufficient_permissions');
    });

    it.each([
      ['a lower-case scheme', (k: string) => `bearer ${k}`],
      ['several spaces after the scheme', (k: string) => `Bearer    ${k}`],
    ])('accepts %s', async (_label, header) => {
      const res = await sandbox.request('GET', '/v1/sessions', { headers: { authorization: header(keys.secretTest) } });
      expect(res.status).toBe(200);
    });
  });
});
