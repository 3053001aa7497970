import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectSecurityHeaders } from '../support/assertions.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';
import { randomToken } from '../../shared/ids.ts';
import { requestFingerprint } from '../../shared/http/middlewares/idempotency.ts';
import { routes } from '../../shared/routes.ts';

const VALID = { amountMinor: 1050, currency: 'VES' } as const;

describe('Idempotency-Key on POST /v1/sessions', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  /** Each test gets its own merchant, so list totals count only its sessions. */
  async function merchantWithKeys(options?: Parameters<TestSandbox['newMerchant']>[0]): Promise<{ merchant: Merchant; keys: MerchantKeys }> {
    return sandbox.newMerchant(options);
  }
  const post = (key: string, idempotencyKey: string, body: unknown = VALID) =>
    sandbox.request('POST', '/v1/sessions', { key, body, headers: { 'Idempotency-Key': idempotencyKey } });
  const total = async (key: string) => (await sandbox.request('GET', '/v1/sessions', { key })).body.total as number;
  const newKey = () => `order-${randomToken(12)}`;
  const replayed = (res: TestResponse) => res.headers.get('idempotent-replayed');

  describe('a repeat', () => {
    it('returns the stored status and body, marked Idempotent-Replayed: true, and creates nothing', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      const first = await post(keys.secretTest, key);
      expect(first.status).toBe(201);
      expect(replayed(first)).toBeNull();

      sandbox.advance(60);
      const again = await post(keys.secretTest, key);
      expect(again.status).toBe(201);
      expect(replayed(again)).toBe('true');
      expectSecurityHeaders(again);
      // The very bytes first sent, keys in the same order: a client may compare or hash the answers.
      expect(again.text).toBe(first.text);
      expect(await total(keys.secretTest)).toBe(1);
    });

    it('is recognised whatever the key order and spacing of the same JSON', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      const first = await sandbox.request('POST', '/v1/sessions', {
        key: keys.secretTest,
        rawBody: '{"amountMinor":1050,"currency":"VES","prefill":{"documentType":"V","documentId":"12345678"}}',
        headers: { 'Idempotency-Key': key },
      });
      const again = await sandbox.request('POST', '/v1/sessions', {
        key: keys.secretTest,
        rawBody: '{ "prefill": { "documentId": "12345678", "documentType": "V" },\n  "currency": "VES", "amountMinor": 1050 }',
        headers: { 'Idempotency-Key': key },
      });
      expect(again.status).toBe(201);
      expect(replayed(again)).toBe('true');
      expect(again.body.reference).toBe(first.body.reference);
      expect(await total(keys.secretTest)).toBe(1);
    });

    it('returns the stored response even after the session changed (it is a replay, not a read)', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      const first = await post(keys.secretTest, key);
      await sandbox.request('POST', `/v1/sessions/${first.body.reference}/expire`, { key: keys.secretTest });
      const again = await post(keys.secretTest, key);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.body.status).toBe('created');
    });

    it('still replays just before 24 hours, and runs as a new request after 24 hours', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      const first = await post(keys.secretTest, key);

      sandbox.advance(24 * 3600 - 60);
      const within = await post(keys.secretTest, key);
      expect(replayed(within)).toBe('true');
      expect(within.body.reference).toBe(first.body.reference);

      sandbox.advance(61);
      const after = await post(keys.secretTest, key);
      expect(after.status).toBe(201);
      expect(replayed(after)).toBeNull();
      expect(after.body.reference).not.toBe(first.body.reference);
      expect(await total(keys.secretTest)).toBe(2);

      const afterAgain = await post(keys.secretTest, key);
      expect(afterAgain.body.reference).toBe(after.body.reference);
    });
  });

  describe('scope', () => {
    it('is per merchant: another merchant\'s use of the same key creates its own session', async () => {
      const { keys: a } = await merchantWithKeys();
      const { keys: b } = await merchantWithKeys();
      const key = newKey();
      const fromA = await post(a.secretTest, key);
      const fromB = await post(b.secretTest, key);
      expect(fromB.status).toBe(201);
      expect(replayed(fromB)).toBeNull();
      expect(fromB.body.reference).not.toBe(fromA.body.reference);
      expect(await total(b.secretTest)).toBe(1);
    });

    it('is per mode: the live key with the same key creates a live session', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      const test = await post(keys.secretTest, key);
      const live = await post(keys.secretLive, key);
      expect(live.status).toBe(201);
      expect(replayed(live)).toBeNull();
      expect(live.body.mode).toBe('live');
      expect(live.body.reference).not.toBe(test.body.reference);
    });
  });

  describe('the same key with a different body', () => {
    it('is rejected with 422 idempotency_key_reused, creates nothing, and the original still replays', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      const first = await post(keys.secretTest, key);
      const { message } = expectError(await post(keys.secretTest, key, { ...VALID, amountMinor: 2000 }), 422, 'idempotency_key_reused', 'header.idempotency-key');
      expect(message).toMatch(/different request body/);
      expect(await total(keys.secretTest)).toBe(1);
      expect((await post(keys.secretTest, key)).body).toEqual(first.body);
    });

    it.each([
      ['an added optional field', { ...VALID, description: 'extra' }],
      ['another currency', { amountMinor: 1050, currency: 'USD' }],
      ['maxFailures 0 instead of omitted', { ...VALID, maxFailures: 0 }],
    ])('is rejected for %s', async (_label, body) => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      await post(keys.secretTest, key);
      expectError(await post(keys.secretTest, key, body), 422, 'idempotency_key_reused', 'header.idempotency-key');
    });
  });

  describe('invalid keys', () => {
    it.each([
      ['empty', ''],
      ['with a space', 'order 42'],
      ['with a tab', 'order\t42'],
      ['of 256 characters', 'k'.repeat(256)],
    ])('answers 400 idempotency_key_invalid for a key %s, creating nothing', async (_label, header) => {
      const { keys } = await merchantWithKeys();
      expectError(await post(keys.secretTest, header), 400, 'idempotency_key_invalid', 'header.idempotency-key');
      expect(await total(keys.secretTest)).toBe(0);
    });

    it('accepts a key of 255 printable characters', async () => {
      const { keys } = await merchantWithKeys();
      const key = `${'k'.repeat(250)}-!~:/`;
      expect((await post(keys.secretTest, key)).status).toBe(201);
      expect(replayed(await post(keys.secretTest, key))).toBe('true');
    });
  });

  describe('a refused request does not use up its key', () => {
    it('after a 400 the same key serves a corrected request', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      expectError(await post(keys.secretTest, key, { ...VALID, expiresInMinutes: 61 }), 400, 'parameter_invalid', 'expiresInMinutes');
      const res = await post(keys.secretTest, key);
      expect(res.status).toBe(201);
      expect(replayed(res)).toBeNull();
    });

    it('after a 409 (merchant not provisioned) the same request runs again once the merchant is provisioned', async () => {
      const { merchant, keys } = await merchantWithKeys({ provisioned: false });
      const key = newKey();
      expectError(await post(keys.secretTest, key), 409, 'merchant_not_provisioned');
      expectError(await post(keys.secretTest, key), 409, 'merchant_not_provisioned');
      await sandbox.deps.merchants.update(merchant.id, { provisioned: true });
      sandbox.advance(31); // past the 30 s merchant cache
      const res = await post(keys.secretTest, key);
      expect(res.status).toBe(201);
      expect(replayed(res)).toBeNull();
      expect(await total(keys.secretTest)).toBe(1);
    });
  });

  describe('a repeat while the first is still running', () => {
    it('gets 409 idempotency_in_progress with Retry-After, and the operation runs once', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      let reached!: () => void;
      const firstReachedStore = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const original = sandbox.deps.sessions.create.bind(sandbox.deps.sessions);
      const spy = vi.spyOn(sandbox.deps.sessions, 'create').mockImplementation(async (...args) => {
        reached();
        await gate;
        return original(...args);
      });
      try {
        const first = post(keys.secretTest, key);
        await firstReachedStore;

        const during = await post(keys.secretTest, key);
        const { message } = expectError(during, 409, 'idempotency_in_progress');
        expect(message).toMatch(/still being processed/);
        expect(during.headers.get('retry-after')).toBe('1');

        release();
        const firstAnswer = await first;
        expect(firstAnswer.status).toBe(201);
        expect(spy).toHaveBeenCalledTimes(1);

        const after = await post(keys.secretTest, key);
        expect(replayed(after)).toBe('true');
        expect(after.body).toEqual(firstAnswer.body);
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        release();
        spy.mockRestore();
      }
      expect(await total(keys.secretTest)).toBe(1);
    });

    it('takes over a claim abandoned by a request that died, but only after its 30 s lock', async () => {
      const { merchant, keys } = await merchantWithKeys();
      const key = newKey();
      // A request that claimed the key and then died (its Lambda timed out) leaves an in-progress record behind.
      const fingerprint = await requestFingerprint(routes.createSession, '/v1/sessions', VALID);
      const claim = await sandbox.deps.idempotency.claim(
        { merchantId: merchant.id, mode: 'test', operation: 'POST /v1/sessions', key },
        fingerprint,
        sandbox.clock.now(),
      );
      expect(claim.kind).toBe('claimed');

      expectError(await post(keys.secretTest, key), 409, 'idempotency_in_progress');
      sandbox.advance(20);
      expectError(await post(keys.secretTest, key), 409, 'idempotency_in_progress');
      expect(await total(keys.secretTest)).toBe(0);

      sandbox.advance(11);
      const res = await post(keys.secretTest, key);
      expect(res.status).toBe(201);
      expect(replayed(res)).toBeNull();
      expect(await total(keys.secretTest)).toBe(1);
    });

    it('20 parallel requests with one key create exactly one session; each answer is the 201 or 409 idempotency_in_progress', async () => {
      const { keys } = await merchantWithKeys();
      const key = newKey();
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(keys.secretTest, key)));

      const created = answers.filter((r) => r.status === 201);
      const inProgress = answers.filter((r) => r.status === 409);
      expect(created.length + inProgress.length, answers.map((r) => `${r.status} ${r.text}`).join('\n')).toBe(20);
      for (const res of inProgress) {
        expectError(res, 409, 'idempotency_in_progress');
        expect(res.headers.get('retry-after')).toBe('1');
      }
      const originals = created.filter((r) => replayed(r) === null);
      expect(originals).toHaveLength(1);
      for (const res of created) expect(res.body).toEqual(originals[0]!.body);
      expect(await total(keys.secretTest)).toBe(1);

      const after = await post(keys.secretTest, key);
      expect(replayed(after)).toBe('true');
      expect(after.body).toEqual(originals[0]!.body);
    });
  });
});
