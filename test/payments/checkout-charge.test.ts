import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutChargeResultSchema, CheckoutSessionSchema } from '../../shared/schemas/checkout-responses.ts';
import { declineReason } from '../../shared/domain/decline-codes.ts';
import { expectError, withoutRequestId } from '../support/assertions.ts';
import { itemsOfMerchant } from '../support/dynamo.ts';
import { card, checkoutCharge, DOCUMENT, eventsOf, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('POST /v1/checkout/charge', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('pays a session with an approving card: transaction approved, session completed, charge.approved in the outbox', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { returnUrl: 'https://shop.example/thanks' });

    const res = await checkoutCharge(sandbox, session.reference);

    expect(res.status).toBe(200);
    expect(CheckoutChargeResultSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.transaction).toMatchObject({
      status: 'approved',
      test: true,
      sessionReference: session.reference,
      amountMinor: 1050,
      currency: 'VES',
      card: { brand: 'visa', lastFour: '1111' },
      declineReason: null,
      errorCode: null,
    });
    expect(res.body.transaction.processorReference).toMatch(/^AUTH/);
    expect(res.body.session).toEqual({ reference: session.reference, status: 'completed', closedReason: null, attemptsRemaining: null, returnUrl: 'https://shop.example/thanks' });
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(CheckoutSessionSchema.parse(page.body)).toMatchObject({ status: 'completed', requiresDocument: true, requiresOtp: false, storedCard: null, test: true });
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'completed', attemptCount: 1, lastTransaction: { reference: res.body.transaction.reference, status: 'approved' } });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.approved']);
    expect(events[0]!.data).toEqual({
      transactionReference: res.body.transaction.reference,
      amountMinor: 1050,
      currency: 'VES',
      status: 'approved',
      declineReason: null,
      errorCode: null,
      processorReference: res.body.transaction.processorReference,
      paymentMethod: { type: 'card' },
      metadata: {},
      sessionReference: session.reference,
    });
    expect(sandbox.bank.calls({ reference: res.body.transaction.reference, operation: 'charge' })).toEqual([
      { gateway: 'bank_direct', environment: 'test', operation: 'charge', reference: res.body.transaction.reference },
    ]);
  });

  it('declines for insufficient funds: the buyer reads a generic code with the Spanish reason, the merchant the processor code and the same text; the session stays open', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 2 });

    const res = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });

    expect(res.status).toBe(200);
    expect(res.body.transaction).toMatchObject({ status: 'declined', errorCode: 'card_declined', declineReason: 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.', processorReference: null });
    expect(res.body.session).toMatchObject({ status: 'failed', attemptsRemaining: 2 });
    const detail = await sandbox.request('GET', `/v1/transactions/${res.body.transaction.reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ errorCode: '0051', declineReason: 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.' });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.declined']);
    expect(events[0]!.data).toMatchObject({ status: 'declined', errorCode: '0051', processorReference: null });
  });

  it.each<[string, Record<string, unknown>, 'declined' | 'failed', string, string]>([
    ['a wrong CVV', card(TEST_CARDS.wrongCvv), 'declined', '0082', 'card_declined'],
    ['a past expiry', card(TEST_CARDS.visa, { expMonth: 1, expYear: 2020 }), 'declined', '0120', 'card_declined'],
    ['a processor error', card(TEST_CARDS.processorError), 'failed', '0096', 'processing_error'],
  ])('rejects %s with its processor code for the merchant and a generic one for the buyer', async (_, payCard, status, errorCode, buyerCode) => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);

    const res = await checkoutCharge(sandbox, session.reference, { card: payCard });

    expect(res.status).toBe(200);
    expect(res.body.transaction).toMatchObject({ status, errorCode: buyerCode });
    expect(res.body.transaction.declineReason).toMatch(/[a-záéíóúñ]/);
    expect(res.body.session.status).toBe('failed');
    const detail = await sandbox.request('GET', `/v1/transactions/${res.body.transaction.reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ status, errorCode, declineReason: declineReason(errorCode, status) });
  });

  it('retries after failures until max_failures_reached closes the session, then refuses with 409', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 2 });

    const first = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });
    const second = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.processorError) });
    const third = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.wrongCvv) });
    const fourth = await checkoutCharge(sandbox, session.reference);

    expect([first.body.session.attemptsRemaining, second.body.session.attemptsRemaining, third.body.session.attemptsRemaining]).toEqual([2, 1, 0]);
    expect(third.body.session).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached' });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toMatchObject({ statusCode: 409, code: 'attempts_exhausted' });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.declined', 'charge.declined', 'charge.failed', 'session.expired']);
    expect(events.find((e) => e.type === 'session.expired')!.data).toEqual({ sessionReference: session.reference, reason: 'max_failures_reached', failureCount: 3, maxFailures: 2, metadata: {} });
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached', attemptsRemaining: 0, attemptCount: 3 });
  });

  it('counts a missing document as a failed attempt (400) and closes a maxFailures 0 session at once', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 0 });

    const res = await checkoutCharge(sandbox, session.reference, { document: null });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'invalid_payment_data', field: 'document' });
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached', attemptCount: 1, lastTransaction: { status: 'failed', errorCode: 'invalid_payment_data' } });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.failed', 'session.expired']);
    expect(sandbox.bank.calls({ reference: read.body.lastTransaction.reference })).toEqual([]);
  });

  it('names every unusable field of the payment data at once, and a replay of the attempt answers the same with its own request id', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const payment = { card: card('4111111111111112', { cvv: '1' }), document: null };

    const res = await checkoutCharge(sandbox, session.reference, payment, { idempotencyKey: 'attempt-many-problems' });
    const replay = await checkoutCharge(sandbox, session.reference, payment, { idempotencyKey: 'attempt-many-problems' });

    expectError(res, 400, 'invalid_payment_data', 'card.number');
    expect(res.body.errors.map((e: { param: string }) => e.param)).toEqual(['card.number', 'card.cvv', 'document']);
    expect(res.body.errors.every((e: { code: string }) => e.code === 'invalid_payment_data')).toBe(true);
    expect(withoutRequestId(replay.body)).toEqual(withoutRequestId(res.body));
    expect(replay.body.requestId).not.toBe(res.body.requestId);
  });

  it('refuses a charge on a completed session with 409 and on a session past expiresAt with 410, counting neither', async () => {
    const { keys } = await sandbox.newMerchant();
    const paid = await openSession(sandbox, keys.secretTest);
    await checkoutCharge(sandbox, paid.reference);
    const late = await openSession(sandbox, keys.secretTest, { maxFailures: 1, expiresInMinutes: 2 });

    const again = await checkoutCharge(sandbox, paid.reference);
    sandbox.advance(121);
    const expired = await checkoutCharge(sandbox, late.reference);

    expect(again.status).toBe(409);
    expect(again.body.code).toBe('session_completed');
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('session_expired');
    const read = await sandbox.request('GET', `/v1/sessions/${late.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'expired', attemptCount: 0, attemptsRemaining: 2 });
  });

  it('replays the stored answer for a repeated Idempotency-Key without charging again', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);

    const first = await checkoutCharge(sandbox, session.reference, {}, { idempotencyKey: 'attempt-1' });
    const repeat = await checkoutCharge(sandbox, session.reference, {}, { idempotencyKey: 'attempt-1' });

    expect(repeat.status).toBe(first.status);
    expect(repeat.text).toBe(first.text);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(sandbox.bank.calls({ reference: first.body.transaction.reference })).toHaveLength(1);
  });

  it('requires an Idempotency-Key', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);

    const res = await sandbox.request('POST', '/v1/checkout/charge', { body: { sessionReference: session.reference, card: card(TEST_CARDS.visa), document: DOCUMENT } });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('idempotency_key_missing');
  });

  it('never writes the card number or the CVV anywhere, nor echoes them', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const cvv = '987';

    const approved = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.mastercard, { cvv }) });
    const other = await openSession(sandbox, keys.secretTest);
    const declined = await checkoutCharge(sandbox, other.reference, { card: card(TEST_CARDS.insufficientFunds, { cvv }) });

    const stored = JSON.stringify(await itemsOfMerchant(merchant.id));
    for (const text of [approved.text, declined.text, stored]) {
      expect(text).not.toContain(TEST_CARDS.mastercard);
      expect(text).not.toContain(TEST_CARDS.insufficientFunds);
      expect(text).not.toContain(`"${cvv}"`);
    }
    expect(stored).toContain('"lastFour":"4444"');
  });

  it('accepts a publishable key of the session merchant and mode, and refuses a secret key or another merchant\'s', async () => {
    const { keys } = await sandbox.newMerchant();
    const stranger = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);

    const foreign = await checkoutCharge(sandbox, session.reference, {}, { key: stranger.keys.publishableTest });
    const secret = await checkoutCharge(sandbox, session.reference, {}, { key: keys.secretTest });
    const own = await checkoutCharge(sandbox, session.reference, {}, { key: keys.publishableTest });

    expect(foreign.status).toBe(401);
    expect(secret.status).toBe(401);
    expect(own.status).toBe(200);
  });

  it('answers 404 for an unknown session', async () => {
    const res = await checkoutCharge(sandbox, 'cs_doesnotexist000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'resource_missing', field: 'sessionReference' });
  });
});
