import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { PROCESSOR_OPEN_BUDGET } from '../../shared/domain/rate-limits.ts';
import { card, checkoutCharge, openSession } from '../support/checkout.ts';
import { alignToNextMinute, ensureRoomInUtcDay } from '../support/clock.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** Stripe's retries of one intent creation after a 5xx (SAFE_RETRIES in the connector), the first try included. */
const TRIES_PER_OPEN = 3;

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

describe('anonymous reads of a USD checkout session before its PaymentIntent is recorded', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 3_000 });
  });
  afterAll(() => sandbox.stop());
  beforeEach(() => {
    sandbox.stripe.clearFaults();
    // Every read of a test below falls in one UTC day, each burst in one UTC minute.
    ensureRoomInUtcDay(sandbox, 3_600);
    alignToNextMinute(sandbox);
  });

  /** A test-mode USD session on Stripe that lives an hour, and the count of its intent creations Stripe has seen. */
  async function stripeSession() {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_direct', USD: 'stripe' }, testMode: { stripe: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'stripe', JSON.stringify({ secretKey: 'sk_test_openbudget00001' }));
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 2500, currency: 'USD', expiresInMinutes: 60 });
    const creations = () => sandbox.stripe.calls({ operation: 'create_intent' }).filter((c) => c.idempotencyKey?.includes(session.reference)).length;
    return { session, creations };
  }

  const read = (reference: string) => sandbox.request('GET', `/v1/checkout/sessions/${reference}`);

  it('opens the PaymentIntent at most once a minute, however many reads arrive together, while Stripe keeps failing', async () => {
    const { session, creations } = await stripeSession();
    sandbox.stripe.injectFault({ operation: 'create_intent', kind: 'server_error', times: 1_000 });

    const firstMinute = minuteOf(sandbox.clock.now());
    const reads = await Promise.all(Array.from({ length: 10 }, () => read(session.reference)));
    for (let i = 0; i < 20; i++) reads.push(await read(session.reference));
    // The burst starts a minute's first second; on a very busy machine it may reach into the next minute.
    const minutes = minuteOf(sandbox.clock.now()) - firstMinute + 1;

    expect(reads.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(reads.every((r) => r.body.lastTransaction === null)).toBe(true);
    const duringBurst = creations();
    expect(duringBurst).toBeGreaterThanOrEqual(TRIES_PER_OPEN);
    expect(duringBurst).toBeLessThanOrEqual(TRIES_PER_OPEN * minutes);

    // Stripe is back: the next minute's first read opens it and records it; later reads call Stripe no more.
    sandbox.stripe.clearFaults();
    sandbox.advance(60);
    const opened = await read(session.reference);
    for (let i = 0; i < 5; i++) await read(session.reference);
    expect(opened.body).toMatchObject({ status: 'created', lastTransaction: { status: 'pending', card: null } });
    expect(creations()).toBe(duringBurst + 1);
  });

  it('stops opening it after the per-session budget: the charge opens it then', async () => {
    const { session, creations } = await stripeSession();
    sandbox.stripe.injectFault({ operation: 'create_intent', kind: 'server_error', times: 1_000 });

    for (let minute = 0; minute < PROCESSOR_OPEN_BUDGET.perDay + 3; minute++) {
      expect((await read(session.reference)).status).toBe(200);
      sandbox.advance(60);
    }

    expect(creations()).toBe(PROCESSOR_OPEN_BUDGET.perDay * TRIES_PER_OPEN);
    sandbox.stripe.clearFaults();
    const paid = await checkoutCharge(sandbox, session.reference, { card: card('4242424242424242'), document: null });
    expect(paid.status).toBe(200);
    expect(paid.body.transaction).toMatchObject({ status: 'approved', amountMinor: 2500 });
    expect(creations()).toBe(PROCESSOR_OPEN_BUDGET.perDay * TRIES_PER_OPEN + 1);
  });
});
