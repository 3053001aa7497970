import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRateLimit } from '../../shared/admin/merchant-settings.ts';
import type { OperationClass, RateLimit } from '../../shared/domain/merchant.ts';
import { CHECKOUT_SESSION_BUDGET, rateWindows } from '../../shared/domain/rate-limits.ts';
import { routes } from '../../shared/routes.ts';
import { keys as tableKeys } from '../../shared/store/keys.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { alignToNextMinute, ensureRoomInUtcDay } from '../support/clock.ts';
import { expectRefused, expectRateLimited } from './support/answers.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import { otpMerchant, payWithOtp, serverCharge, storedCard } from '../support/stored-card-charges.ts';
import { refund } from '../refunds/support.ts';

/**
 * Issue 21, finding 5: a `cs_` reference, which the buyer's browser holds without any key, must not be able to use
 * up its merchant's limits. Closed sessions are refused before anything is counted; an open one counts against a
 * budget of its own first; refunds and server-to-server charges have classes apart from the checkout's `charge`.
 */
describe('Checkout rate limits: what a session reference can use up', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const withLimits = (rateLimits: Partial<Record<OperationClass, RateLimit>>) => sandbox.newMerchant({ changes: { rateLimits } });
  const statuses = (answers: TestResponse[]) => answers.map((r) => r.status);
  const repeat = async (times: number, send: () => Promise<TestResponse>) => {
    const answers: TestResponse[] = [];
    for (let i = 0; i < times; i++) answers.push(await send());
    return answers;
  };

  it('refuses every call on a completed session with 409 session_completed without counting it: another buyer and the refund still go through', async () => {
    const { keys } = await withLimits({ charge: { perMinute: 3, perDay: 1000 } });
    alignToNextMinute(sandbox);
    const paid = await openSession(sandbox, keys.secretTest);
    const idempotencyKey = randomUUID();
    const approved = await checkoutCharge(sandbox, paid.reference, {}, { idempotencyKey });
    expect(approved.status).toBe(200);

    const replays = await repeat(8, () => checkoutCharge(sandbox, paid.reference));
    expect(statuses(replays)).toEqual(Array(8).fill(409));
    for (const r of replays) expectRefused(r, 409, 'session_completed');
    // The buyer's retry of the attempt that paid still gets its answer: the refusal is the handler's, after the key.
    const retried = await checkoutCharge(sandbox, paid.reference, {}, { idempotencyKey });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.transaction.reference).toBe(approved.body.transaction.reference);

    const other = await openSession(sandbox, keys.secretTest);
    expect((await checkoutCharge(sandbox, other.reference)).status).toBe(200);
    expect((await refund(sandbox, keys.secretTest, approved.body.transaction.reference)).status).toBe(200);
  });

  it('refuses every call on a session the merchant closed with 410 session_expired without counting it', async () => {
    const { keys } = await withLimits({ charge: { perMinute: 2, perDay: 1000 } });
    alignToNextMinute(sandbox);
    const closed = await openSession(sandbox, keys.secretTest);
    expect((await sandbox.request('POST', `/v1/sessions/${closed.reference}/expire`, { key: keys.secretTest })).status).toBe(200);

    const refused = await repeat(5, () => checkoutCharge(sandbox, closed.reference));
    for (const r of refused) expectRefused(r, 410, 'session_expired');

    const other = await openSession(sandbox, keys.secretTest);
    expect((await checkoutCharge(sandbox, other.reference)).status).toBe(200);
  });

  it(`gives one open session at most ${CHECKOUT_SESSION_BUDGET.perMinute} checkout calls a minute, counted before the merchant's class, which keeps room for other sessions`, async () => {
    const budget = CHECKOUT_SESSION_BUDGET.perMinute;
    // Room for one session's whole budget and one more charge: a session beyond its budget would take it.
    const { keys } = await withLimits({ charge: { perMinute: budget + 1, perDay: 1000 } });
    alignToNextMinute(sandbox);
    const busy = await openSession(sandbox, keys.secretTest);
    const pending = await checkoutCharge(sandbox, busy.reference, { card: card(TEST_CARDS.otp) });
    expect(pending.status).toBe(202);

    const more = await repeat(budget + 5, () => checkoutCharge(sandbox, busy.reference));
    expect(statuses(more.slice(0, budget - 1))).toEqual(Array(budget - 1).fill(409));
    for (const r of more.slice(0, budget - 1)) expectRefused(r, 409, 'charge_in_flight');
    for (const r of more.slice(budget - 1)) expect(expectRateLimited(r)).toBeLessThanOrEqual(60);

    const other = await openSession(sandbox, keys.secretTest);
    expect((await checkoutCharge(sandbox, other.reference)).status).toBe(200);
    // The OTP step is a checkout call of the session too (issue 33, finding 1): refused within the spent minute,
    // before anything is asked of the bank; the next minute it completes the busy session.
    const confirm = () =>
      sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference: busy.reference, transactionReference: pending.body.transaction.reference, code: '123456' } });
    expectRateLimited(await confirm());
    expect(sandbox.bank.calls({ reference: pending.body.transaction.reference, operation: 'otp' })).toEqual([]);
    alignToNextMinute(sandbox);
    expect((await confirm()).status).toBe(200);

    alignToNextMinute(sandbox);
    expectRefused(await checkoutCharge(sandbox, busy.reference), 409, 'session_completed');
  });

  it('counts refunds in a class of their own: a full checkout class leaves them, and their own limit stops them', async () => {
    const { keys } = await withLimits({ charge: { perMinute: 2, perDay: 1000 }, refunds: { perMinute: 1, perDay: 1000 } });
    alignToNextMinute(sandbox);
    const first = await openSession(sandbox, keys.secretTest);
    const second = await openSession(sandbox, keys.secretTest);
    const paid = [await checkoutCharge(sandbox, first.reference), await checkoutCharge(sandbox, second.reference)];
    expect(statuses(paid)).toEqual([200, 200]);
    const third = await openSession(sandbox, keys.secretTest);
    expectRateLimited(await checkoutCharge(sandbox, third.reference));

    expect((await refund(sandbox, keys.secretTest, paid[0]!.body.transaction.reference)).status).toBe(200);
    expectRateLimited(await refund(sandbox, keys.secretTest, paid[1]!.body.transaction.reference));
  });

  it('counts server-to-server charges in a class of their own: a full checkout class leaves them, and their own limit stops them', async () => {
    const { merchant, keys } = await otpMerchant(sandbox);
    // Two checkout calls: the charge and its OTP step.
    await setRateLimit(sandbox.deps, merchant.id, 'charge', { perMinute: 2, perDay: 1000 });
    await setRateLimit(sandbox.deps, merchant.id, 'server_charges', { perMinute: 1, perDay: 1000 });
    alignToNextMinute(sandbox);
    await payWithOtp(sandbox, keys.secretLive, 'customer-s2s');
    const { svcToken } = await storedCard(sandbox, keys.secretLive, 'customer-s2s');
    const full = await openSession(sandbox, keys.secretLive);
    expectRateLimited(await checkoutCharge(sandbox, full.reference));

    expect((await serverCharge(sandbox, keys.secretLive, { svcToken })).status).toBe(200);
    expectRateLimited(await serverCharge(sandbox, keys.secretLive, { svcToken }));
  });

  it('keeps the spec\'s table for POST /v1/checkout/charge (charge: 120 a minute, 10,000 a day) and puts refunds and POST /v1/charges elsewhere', async () => {
    expect(routes.createCheckoutCharge.rateClass).toBe('charge');
    expect(routes.confirmCheckoutOtp.rateClass).toBe('charge');
    expect(routes.createRefund.rateClass).toBe('refunds');
    expect(routes.createCharge.rateClass).toBe('server_charges');
    for (const [window, limit] of [['minute', 120], ['day', 10_000]] as const) {
      const { merchant, keys } = await sandbox.newMerchant();
      ensureRoomInUtcDay(sandbox);
      alignToNextMinute(sandbox);
      const w = rateWindows(sandbox.clock.now());
      const counts = window === 'minute' ? { minute: w.minute, minuteCount: limit - 1, dayCount: limit - 1 } : { dayCount: limit - 1 };
      await sandbox.deps.db.send(
        new PutCommand({ TableName: sandbox.deps.config.tableName, Item: { ...tableKeys.rateWindow(merchant.id, 'charge', w.day), ...counts, ttl: w.dayExpiresAt } }),
      );
      const last = await openSession(sandbox, keys.secretTest);
      expect((await checkoutCharge(sandbox, last.reference)).status).toBe(200);
      const over = await openSession(sandbox, keys.secretTest);
      expectRateLimited(await checkoutCharge(sandbox, over.reference));
    }
  });
});
