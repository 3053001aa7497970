import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { OffsetClock } from '../../shared/clock.ts';
import { startStripeSimulator, type StripeSimulator } from '../../infra/sandbox/stripe/stripe-simulator.ts';
import { card, checkoutCharge, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('GATEWAY_STRIPE_URL in the sandbox', () => {
  /** Another Stripe at its own address, standing for api.stripe.com or an independent implementation. */
  let elsewhere: StripeSimulator;
  let sandbox: TestSandbox;
  beforeAll(async () => {
    elsewhere = await startStripeSimulator({ clock: new OffsetClock() });
    sandbox = await startTestSandbox({ gatewayEnv: { GATEWAY_STRIPE_URL: elsewhere.url } });
  });
  afterAll(async () => {
    await sandbox.stop();
    await elsewhere.close();
  });

  it('sends every Stripe call of a test and a live session there instead of the built-in simulator', async () => {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_direct', USD: 'stripe' }, testMode: { stripe: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'stripe', JSON.stringify({ secretKey: 'sk_live_elsewhere000001', testSecretKey: 'sk_test_elsewhere000001' }));

    const sessions = [await openSession(sandbox, keys.secretTest, { amountMinor: 2500, currency: 'USD' }), await openSession(sandbox, keys.secretLive, { amountMinor: 2500, currency: 'USD' })];
    const paid = await Promise.all(sessions.map((s) => checkoutCharge(sandbox, s.reference, { card: card('4242424242424242'), document: null })));

    expect(paid.map((p) => p.body.transaction.status)).toEqual(['approved', 'approved']);
    expect(sessions.map((s) => elsewhere.intentOf(s.reference)?.livemode)).toEqual([false, true]);
    expect(sandbox.stripe.calls()).toEqual([]);
  });
});
