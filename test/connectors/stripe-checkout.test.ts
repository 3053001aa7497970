import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { STRIPE_DECLINE_REASONS } from '../../shared/connectors/stripe/outcomes.ts';
import { card, checkoutCharge, eventsOf, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** The simulator's keys: any well-formed sk_ key is an account there. */
const CREDENTIALS = { secretKey: 'sk_live_simulator0000001', testSecretKey: 'sk_test_simulator0000001' };
const STRIPE_CARDS = { visa: '4242424242424242', insufficientFunds: '4000000000009995', incorrectNumber: '4242424242424241', lost: '4000000000009987', stolen: '4000000000009979' } as const;

describe('USD checkout on Stripe through its simulator, end to end in the sandbox', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 3_000 });
  });
  afterAll(() => sandbox.stop());
  beforeEach(() => sandbox.stripe.clearFaults());

  /** A merchant whose USD goes to Stripe, test mode on, with its Stripe keys loaded. */
  async function stripeMerchant() {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_direct', USD: 'stripe' }, testMode: { stripe: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'stripe', JSON.stringify(CREDENTIALS));
    return { merchant, keys };
  }

  /** A USD session whose buyer opened the checkout: its PaymentIntent exists at Stripe. */
  async function openedSession(key: 'secretTest' | 'secretLive' = 'secretTest', amountMinor = 2500) {
    const { merchant, keys } = await stripeMerchant();
    const session = await openSession(sandbox, keys[key], { amountMinor, currency: 'USD' });
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    return { merchant, keys, session, page };
  }

  it('takes a test-key USD session on a Stripe merchant in test mode (no more test_mode_unsupported) and opens its PaymentIntent with the sk_test_ key', async () => {
    const { session, page } = await openedSession();

    expect(session).toMatchObject({ currency: 'USD', status: 'created' });
    expect(page.body).toMatchObject({ status: 'created', lastTransaction: { status: 'pending', card: null } });
    expect(sandbox.stripe.intentOf(session.reference)).toMatchObject({ status: 'requires_payment_method', amount: 2500, currency: 'usd', capture_method: 'manual', livemode: false });
  });

  it('pays a USD session: confirmed and captured at Stripe, the opened transaction approved with the PaymentIntent as processor reference', async () => {
    const { merchant, session, page } = await openedSession();

    const paid = await checkoutCharge(sandbox, session.reference, { card: card(STRIPE_CARDS.visa), document: null });

    const intent = sandbox.stripe.intentOf(session.reference)!;
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ transaction: { reference: page.body.lastTransaction.reference, status: 'approved', currency: 'USD', amountMinor: 2500 }, session: { status: 'completed' } });
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 2500 });
    expect((await sandbox.deps.transactions.get(paid.body.transaction.reference))?.processorReference).toBe(intent.id);
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.approved']);
  });

  it("declines with Stripe's code and the connector's Spanish reason; the next card pays the same PaymentIntent", async () => {
    const { merchant, keys, session } = await openedSession();

    const declined = await checkoutCharge(sandbox, session.reference, { card: card(STRIPE_CARDS.insufficientFunds), document: null });
    const paid = await checkoutCharge(sandbox, session.reference, { card: card(STRIPE_CARDS.visa), document: null });

    // The checkout answers a generic code with the reason the buyer can act on; the merchant's API keeps Stripe's code.
    const recorded = await sandbox.request('GET', `/v1/transactions/${declined.body.transaction.reference}`, { key: keys.secretTest });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ transaction: { status: 'declined', errorCode: 'card_declined', declineReason: STRIPE_DECLINE_REASONS.insufficient_funds } });
    expect(recorded.body).toMatchObject({ status: 'declined', errorCode: 'insufficient_funds', declineReason: STRIPE_DECLINE_REASONS.insufficient_funds });
    expect(paid.body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed' } });
    expect(sandbox.stripe.calls({ operation: 'create_intent' }).filter((c) => (c.params.metadata as Record<string, string>).svc_session === session.reference).length).toBeGreaterThanOrEqual(1);
    const intents = new Set(sandbox.stripe.calls({ operation: 'confirm' }).map((c) => c.path).filter((p) => p.includes(sandbox.stripe.intentOf(session.reference)!.id)));
    expect(intents.size).toBe(1);
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.declined', 'charge.approved']);
  });

  it('tells the buyer of a lost or stolen card only the generic decline; the merchant reads lost_card and stolen_card', async () => {
    for (const [number, code] of [[STRIPE_CARDS.lost, 'lost_card'], [STRIPE_CARDS.stolen, 'stolen_card']] as const) {
      const { keys, session } = await openedSession();
      const declined = await checkoutCharge(sandbox, session.reference, { card: card(number), document: null });
      expect(declined.body.transaction, code).toMatchObject({ status: 'declined', errorCode: 'card_declined', declineReason: STRIPE_DECLINE_REASONS.generic_decline });
      const recorded = await sandbox.request('GET', `/v1/transactions/${declined.body.transaction.reference}`, { key: keys.secretTest });
      expect(recorded.body).toMatchObject({ status: 'declined', errorCode: code });
    }
  });

  it("sends Stripe's incorrect_number test card (it fails Luhn) to Stripe in test mode, which declines it with its code", async () => {
    const { keys, session } = await openedSession();

    const declined = await checkoutCharge(sandbox, session.reference, { card: card(STRIPE_CARDS.incorrectNumber), document: null });

    expect(declined.body.transaction).toMatchObject({ errorCode: 'card_declined', declineReason: STRIPE_DECLINE_REASONS.incorrect_number });
    const recorded = await sandbox.request('GET', `/v1/transactions/${declined.body.transaction.reference}`, { key: keys.secretTest });
    expect(recorded.body).toMatchObject({ status: 'declined', errorCode: 'incorrect_number', declineReason: STRIPE_DECLINE_REASONS.incorrect_number });
  });

  it('refunds part of a Stripe charge, then the rest, through POST /v1/refunds on its PaymentIntent', async () => {
    const { keys, session } = await openedSession();
    const paid = await checkoutCharge(sandbox, session.reference, { card: card(STRIPE_CARDS.visa), document: null });
    const reference = paid.body.transaction.reference as string;
    const refund = (amountMinor: number) => sandbox.request('POST', `/v1/transactions/${reference}/refunds`, { key: keys.secretTest, body: { amountMinor }, headers: { 'idempotency-key': crypto.randomUUID() } });

    const part = await refund(1000);
    const rest = await refund(1500);
    const detail = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest });

    const intentId = sandbox.stripe.intentOf(session.reference)!.id;
    expect([part.status, rest.status]).toEqual([200, 200]);
    expect(part.body).toMatchObject({ status: 'succeeded', amountMinor: 1000 });
    expect(detail.body).toMatchObject({ status: 'refunded', amountRefundedMinor: 2500 });
    expect(sandbox.stripe.calls({ operation: 'create_refund' }).filter((c) => c.params.payment_intent === intentId).map((c) => c.params.amount)).toEqual(['1000', '1500']);
  });

  it("expiring an open USD session cancels its PaymentIntent at Stripe; the opened transaction fails with payment_cancelled", async () => {
    const { merchant, keys, session, page } = await openedSession();

    const expired = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });

    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ status: 'expired', closedReason: 'merchant_request', lastTransaction: { reference: page.body.lastTransaction.reference, status: 'failed', errorCode: 'payment_cancelled' } });
    expect(sandbox.stripe.intentOf(session.reference)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.failed', 'session.expired']);
  });

  it('answers 409 processor_already_charged when Stripe captured the PaymentIntent first', async () => {
    const { keys, session } = await openedSession();
    sandbox.stripe.markIntentSucceeded(session.reference);

    const expired = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });

    expect(expired.status).toBe(409);
    expect(expired.body.code).toBe('processor_already_charged');
    expect(sandbox.stripe.intentOf(session.reference)!.status).toBe('succeeded');
  });

  it('answers 503 and changes nothing when Stripe cannot cancel', async () => {
    const { merchant, keys, session } = await openedSession();
    sandbox.stripe.injectFault({ operation: 'cancel', kind: 'server_error', times: 3 });

    const expired = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });

    expect(expired.status).toBe(503);
    expect(expired.body).toMatchObject({ statusCode: 503, code: 'processor_cancellation_failed' });
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'created', closedReason: null, lastTransaction: { status: 'pending' } });
    expect(sandbox.stripe.intentOf(session.reference)!.status).toBe('requires_payment_method');
    expect(await eventsOf(sandbox, merchant.id, 'test', session.reference)).toEqual([]);
  });

  it('refuses Stripe credentials without a secret key, or with a publishable one, with a 400 naming secretKey', async () => {
    const { merchant } = await sandbox.newMerchant();

    for (const credentials of [{ testSecretKey: 'sk_test_simulator0000001' }, { secretKey: 'pk_live_simulator0000001' }]) {
      await expect(loadBankCredentials(sandbox.deps, merchant.id, 'stripe', JSON.stringify(credentials))).rejects.toMatchObject({
        statusCode: 400,
        code: 'credentials_invalid',
        options: { field: 'secretKey' },
      });
    }
    expect((await sandbox.deps.merchants.get(merchant.id))?.credentialsLoaded.stripe).toBeFalsy();
  });

  it('takes faults through the sandbox control POST /__sandbox/stripe/faults (JSON, same site only), refusing a bad one naming its field', async () => {
    const { keys, session } = await openedSession();

    const bad = await sandbox.request('POST', '/__sandbox/stripe/faults', { body: { operation: 'cancel', kind: 'explode' } });
    const foreign = await sandbox.request('POST', '/__sandbox/stripe/faults', { body: { operation: 'cancel', kind: 'server_error' }, headers: { origin: 'https://evil.example' } });
    const injected = await sandbox.request('POST', '/__sandbox/stripe/faults', { body: { operation: 'cancel', kind: 'server_error', times: 3 } });
    const expired = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });
    const again = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });

    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'parameter_invalid', field: 'kind' });
    expect(foreign.status).toBe(403);
    expect(injected.status).toBe(200);
    expect(injected.body).toMatchObject({ operation: 'cancel', kind: 'server_error', times: 3, effect: expect.stringContaining('500') });
    expect(expired.status).toBe(503);
    expect(again.status).toBe(200);
    expect(sandbox.stripe.intentOf(session.reference)!.status).toBe('canceled');
  });

  it('leaves a confirm Stripe did not answer in time pending, then reconciles it from Stripe (captured once)', async () => {
    const { keys, session } = await openedSession();
    sandbox.stripe.injectFault({ operation: 'confirm', kind: 'delay' });

    const timedOut = await checkoutCharge(sandbox, session.reference, { card: card(STRIPE_CARDS.visa), document: null });
    sandbox.advance(61);
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);

    const txn = timedOut.body.transaction.reference;
    const intent = sandbox.stripe.intentOf(session.reference)!;
    expect(timedOut.status).toBe(202);
    expect(timedOut.body).toMatchObject({ transaction: { status: 'pending' }, session: { status: 'processing' } });
    expect(page.body).toMatchObject({ status: 'completed', lastTransaction: { reference: txn, status: 'approved' } });
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 2500 });
    expect(sandbox.stripe.calls({ path: `/v1/payment_intents/${intent.id}/confirm` })).toHaveLength(1);
    expect(sandbox.stripe.calls({ operation: 'search_intents' }).length).toBeGreaterThan(0);
    const detail = await sandbox.request('GET', `/v1/transactions/${txn}`, { key: keys.secretTest });
    expect(detail.body.trace.map((t: { event: string }) => t.event)).toEqual(['created', 'payment_opened', 'bank_no_answer', 'reconciled', 'approved']);
    expect(detail.body).toMatchObject({ status: 'approved' });
  });

  it('a live session uses the sk_live_ key: the PaymentIntent is created in live mode', async () => {
    const { session } = await openedSession('secretLive');

    expect(sandbox.stripe.intentOf(session.reference)).toMatchObject({ livemode: true });
  });
});
