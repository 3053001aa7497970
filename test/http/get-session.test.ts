import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoStackTrace, expectSecurityHeaders, withoutRequestId } from '../support/assertions.ts';
import { forceSessionState } from '../support/direct-writes.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';

const VALID = { amountMinor: 1050, currency: 'VES' } as const;

describe('GET /v1/sessions/{reference}', () => {
  let sandbox: TestSandbox;
  let keys: MerchantKeys;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ keys } = await sandbox.newMerchant());
  });
  afterAll(() => sandbox.stop());

  const create = async (body: object = VALID, key = keys.secretTest) => {
    const res = await sandbox.request('POST', '/v1/sessions', { key, body });
    expect(res.status, res.text).toBe(201);
    return res.body as Record<string, any>;
  };
  const get = (reference: string, key = keys.secretTest) => sandbox.request('GET', `/v1/sessions/${reference}`, { key });

  it('returns the session exactly as create returned it', async () => {
    const created = await create({ ...VALID, description: 'Pedido 42', customerRef: 'cust_1', maxFailures: 0, prefill: { cardholderName: 'Ana' } });
    const res = await get(created.reference);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    expectNoStackTrace(res);
    expect(res.body).toEqual(created);
  });

  it('reads the session with the read-only key of the same mode', async () => {
    const created = await create();
    const res = await get(created.reference, keys.restrictedTest);
    expect(res.status).toBe(200);
    expect(res.body.reference).toBe(created.reference);
  });

  describe('expiry without any background job', () => {
    it('still shows created shortly before expiresAt', async () => {
      const created = await create({ ...VALID, expiresInMinutes: 2 });
      sandbox.advance(110);
      const res = await get(created.reference);
      expect(res.body).toMatchObject({ status: 'created', closedReason: null });
    });

    it('shows expired with closedReason expired once expiresAt has passed, expiresAt unchanged', async () => {
      const created = await create({ ...VALID, expiresInMinutes: 2 });
      sandbox.advance(121);
      const res = await get(created.reference);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...created, status: 'expired', closedReason: 'expired' });
    });

    it('shows a failed session past expiresAt as expired', async () => {
      const created = await create({ ...VALID, expiresInMinutes: 2, maxFailures: 3 });
      // Failed sessions come from payments (a later issue): the state is written directly.
      await forceSessionState(sandbox.deps, created.reference, { status: 'failed', failureCount: 1, attemptCount: 1 });
      expect((await get(created.reference)).body).toMatchObject({ status: 'failed', attemptsRemaining: 3, attemptCount: 1 });
      sandbox.advance(121);
      expect((await get(created.reference)).body).toMatchObject({ status: 'expired', closedReason: 'expired' });
    });

    it.each(['processing', 'otp_requested', 'otp_confirmed'] as const)(
      'leaves a session in %s (charge already at the bank) unchanged after expiresAt',
      async (status) => {
        const created = await create({ ...VALID, expiresInMinutes: 2 });
        // In-flight states come from payments (a later issue): the state is written directly.
        await forceSessionState(sandbox.deps, created.reference, { status, attemptCount: 1 });
        sandbox.advance(121);
        const res = await get(created.reference);
        expect(res.body).toMatchObject({ status, closedReason: null });
      },
    );

    it('leaves a completed session completed after expiresAt', async () => {
      const created = await create({ ...VALID, expiresInMinutes: 2 });
      await forceSessionState(sandbox.deps, created.reference, { status: 'completed', attemptCount: 1 });
      sandbox.advance(121);
      expect((await get(created.reference)).body).toMatchObject({ status: 'completed', closedReason: null });
    });
  });

  describe('404 resource_missing', () => {
    it('for a well-formed reference that does not exist', async () => {
      const res = await get('cs_ThisOneDoesNotExist000000');
      const { message } = expectError(res, 404, 'resource_missing', 'reference');
      expect(message).toBe('No such session.');
    });

    it('for another merchant\'s session, with the same answer as for a missing one (test and read-only keys)', async () => {
      const created = await create();
      const { keys: other } = await sandbox.newMerchant();
      const missing = await get('cs_ThisOneDoesNotExist000000', other.secretTest);
      for (const key of [other.secretTest, other.restrictedTest]) {
        const res = await get(created.reference, key);
        expectError(res, 404, 'resource_missing', 'reference');
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(missing.body));
      }
    });

    it('for the same merchant\'s session read with the other mode\'s key (modes are separate; the spec is silent)', async () => {
      const created = await create();
      expectError(await get(created.reference, keys.secretLive), 404, 'resource_missing', 'reference');
    });
  });

  it.each([
    ['no cs_ prefix', 'txn_abc123'],
    ['characters outside the reference alphabet', 'cs_abc$def'],
    ['an encoded slash', 'cs_abc%2Fdef'],
  ])('answers 400 parameter_invalid on path.reference for a reference with %s', async (_label, reference) => {
    expectError(await get(reference), 400, 'parameter_invalid', 'path.reference');
  });

  it('answers 400, not 500, for a reference with broken percent-encoding', async () => {
    expectError(await get('cs_abc%E0%A4%A'), 400, 'parameter_invalid', 'path.reference');
  });
});
