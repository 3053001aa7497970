import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoStackTrace, expectSecurityHeaders } from '../support/assertions.ts';
import { forceSessionState } from '../support/direct-writes.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';

const VALID = { amountMinor: 1050, currency: 'VES' } as const;

describe('POST /v1/sessions/{reference}/expire', () => {
  let sandbox: TestSandbox;
  let merchant: Merchant;
  let keys: MerchantKeys;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ merchant, keys } = await sandbox.newMerchant());
  });
  afterAll(() => sandbox.stop());

  const create = async (body: object = VALID, key = keys.secretTest) => {
    const res = await sandbox.request('POST', '/v1/sessions', { key, body });
    expect(res.status, res.text).toBe(201);
    return res.body as Record<string, any>;
  };
  const expire = (reference: string, key = keys.secretTest) => sandbox.request('POST', `/v1/sessions/${reference}/expire`, { key });
  const get = (reference: string, key = keys.secretTest) => sandbox.request('GET', `/v1/sessions/${reference}`, { key });
  const expiredEventsOf = async (reference: string, mode: 'test' | 'live' = 'test') =>
    (await sandbox.deps.outbox.listForMerchant(merchant.id, mode)).filter((e) => e.envelope.data.sessionReference === reference);

  it('closes a created session: 200, status expired, closedReason merchant_request, expiresAt unchanged', async () => {
    const created = await create({ ...VALID, maxFailures: 2 });
    const res = await expire(created.reference);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    expectNoStackTrace(res);
    expect(res.body).toEqual({ ...created, status: 'expired', closedReason: 'merchant_request' });
    expect((await get(created.reference)).body).toEqual(res.body);
  });

  it('takes no body, so a POST with a non-JSON Content-Type is accepted', async () => {
    const created = await create();
    const res = await sandbox.request('POST', `/v1/sessions/${created.reference}/expire`, { key: keys.secretTest, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
  });

  it('closes a failed session (no charge in flight) with merchant_request', async () => {
    const created = await create({ ...VALID, maxFailures: 3 });
    // A failed attempt comes from payments (a later issue): the state is written directly.
    await forceSessionState(sandbox.deps, created.reference, { status: 'failed', failureCount: 1, attemptCount: 1 });
    const res = await expire(created.reference);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'expired', closedReason: 'merchant_request', attemptsRemaining: 3, attemptCount: 1 });
  });

  it('is idempotent: a repeat answers 200 with the current state and emits no second event', async () => {
    const created = await create();
    const first = await expire(created.reference);
    sandbox.advance(30);
    const second = await expire(created.reference);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await expiredEventsOf(created.reference)).toHaveLength(1);
  });

  it('records what truly happened when expiresAt had already passed: closedReason expired, not merchant_request', async () => {
    const created = await create({ ...VALID, expiresInMinutes: 2 });
    sandbox.advance(121);
    const res = await expire(created.reference);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'expired', closedReason: 'expired', expiresAt: created.expiresAt });
    const events = await expiredEventsOf(created.reference);
    expect(events.map((e) => e.envelope.data.reason)).toEqual(['expired']);
  });

  it('answers 200 unchanged for a session closed by exhausted attempts, without an event', async () => {
    const created = await create({ ...VALID, maxFailures: 0 });
    await forceSessionState(sandbox.deps, created.reference, { status: 'expired', closedReason: 'max_failures_reached', failureCount: 1, attemptCount: 1 });
    const res = await expire(created.reference);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached', attemptsRemaining: 0 });
    expect(await expiredEventsOf(created.reference)).toHaveLength(0);
  });

  describe('409', () => {
    // Completed and in-flight sessions come from payments (a later issue): their state is written directly.
    it.each([
      ['completed (already paid)', 'completed', 'session_completed'],
      ['processing (a charge in flight)', 'processing', 'charge_in_flight'],
      ['otp_requested (a charge in flight)', 'otp_requested', 'charge_in_flight'],
      ['otp_confirmed (a charge in flight)', 'otp_confirmed', 'charge_in_flight'],
    ] as const)('refuses a session in %s, changes nothing and emits nothing', async (_label, status, code) => {
      const created = await create();
      await forceSessionState(sandbox.deps, created.reference, { status, attemptCount: 1 });
      const before = await get(created.reference);
      expectError(await expire(created.reference), 409, code);
      expect((await get(created.reference)).body).toEqual(before.body);
      expect(await expiredEventsOf(created.reference)).toHaveLength(0);
    });

    it('refuses an in-flight session even after its expiresAt (the charge is already at the bank)', async () => {
      const created = await create({ ...VALID, expiresInMinutes: 2 });
      await forceSessionState(sandbox.deps, created.reference, { status: 'processing', attemptCount: 1 });
      sandbox.advance(121);
      expectError(await expire(created.reference), 409, 'charge_in_flight');
    });

    it('makes the session expirable once the in-flight charge is rejected', async () => {
      const created = await create({ ...VALID, maxFailures: 5 });
      await forceSessionState(sandbox.deps, created.reference, { status: 'processing', attemptCount: 1 });
      expectError(await expire(created.reference), 409, 'charge_in_flight');
      await forceSessionState(sandbox.deps, created.reference, { status: 'failed', failureCount: 1 });
      expect((await expire(created.reference)).body).toMatchObject({ status: 'expired', closedReason: 'merchant_request' });
    });

    it.each([
      ['a test session with the live key', 'secretTest', 'secretLive'],
      ['a live session with the test key', 'secretLive', 'secretTest'],
    ] as const)('answers mode_mismatch for %s and leaves it open', async (_label, creator, caller) => {
      const created = await create(VALID, keys[creator]);
      const { message } = expectError(await expire(created.reference, keys[caller]), 409, 'mode_mismatch');
      expect(message).toMatch(/mode/);
      expect((await get(created.reference, keys[creator])).body).toMatchObject({ status: 'created', closedReason: null });
    });
  });

  describe('404 resource_missing', () => {
    it('for a reference that does not exist', async () => {
      expectError(await expire('cs_ThisOneDoesNotExist000000'), 404, 'resource_missing', 'reference');
    });

    it.each([
      ['test', 'secretTest'],
      ['live', 'secretLive'],
    ] as const)('for another merchant\'s session, whatever the mode of its %s key (never 409), and the session stays open', async (_mode, keyName) => {
      const created = await create();
      const { keys: other } = await sandbox.newMerchant();
      expectError(await expire(created.reference, other[keyName]), 404, 'resource_missing', 'reference');
      expect((await get(created.reference)).body.status).toBe('created');
    });
  });

  it('answers 403 insufficient_permissions to a read-only key and leaves the session open', async () => {
    const created = await create();
    expectError(await expire(created.reference, keys.restrictedTest), 403, 'insufficient_permissions');
    expect((await get(created.reference)).body.status).toBe('created');
  });

  it('answers 400 parameter_invalid for a malformed reference', async () => {
    expectError(await expire('not-a-session'), 400, 'parameter_invalid', 'path.reference');
  });

  it('settles parallel expire calls: every one answers 200 with the same closed session and exactly one event is written', async () => {
    const created = await create();
    const answers = await Promise.all(Array.from({ length: 8 }, () => expire(created.reference)));
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ reference: created.reference, status: 'expired', closedReason: 'merchant_request' });
    }
    expect(await expiredEventsOf(created.reference)).toHaveLength(1);
  });
});
