import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { RefundListSchema, RefundSchema } from '../../shared/schemas/refund-responses.ts';
import { TransactionDetailSchema } from '../../shared/schemas/transaction-responses.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';
import { otpMerchant, payWithOtp, serverCharge, storedCard } from '../support/stored-card-charges.ts';
import { delivered, endpointAt, paidTransaction, refund, REFUND_CARDS } from './support.ts';

/** Deadline of one bank call: long enough for a busy machine, far shorter than the timeout card's held answer. */
const GATEWAY_TIMEOUT_MS = 3_000;

const traceEvents = (detail: { trace: { event: string }[] }) => detail.trace.map((t) => t.event);

describe('POST /v1/transactions/{reference}/refunds against the sandbox bank', () => {
  const env = sandboxWithReceiver({ gatewayTimeoutMs: GATEWAY_TIMEOUT_MS });

  it('refunds the whole amount by default: the transaction becomes refunded, the session stays completed, charge.refunded is delivered signed', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const endpoint = await endpointAt(env, keys.secretTest);
    const { session, transaction } = await paidTransaction(sandbox, keys.secretTest, REFUND_CARDS.succeeds, 1000, { metadata: { orderId: 'order_42' } });
    const key = randomUUID();

    const refunded = await refund(sandbox, keys.secretTest, transaction.reference, { reason: 'requested_by_customer' }, key);
    const replay = await refund(sandbox, keys.secretTest, transaction.reference, { reason: 'requested_by_customer' }, key);
    const again = await refund(sandbox, keys.secretTest, transaction.reference);
    const detail = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });
    const list = await sandbox.request('GET', `/v1/transactions/${transaction.reference}/refunds`, { key: keys.restrictedTest });
    const sessionRead = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });

    expect(refunded.status).toBe(200);
    expect(RefundSchema.safeParse(refunded.body).success).toBe(true);
    expect(refunded.body).toMatchObject({
      reference: expect.stringMatching(/^ref_/),
      transactionReference: transaction.reference,
      amountMinor: 1000,
      currency: 'VES',
      status: 'succeeded',
      method: 'refund',
      reason: 'requested_by_customer',
      processorReference: expect.stringMatching(/^RFD/),
      errorCode: null,
      declineReason: null,
      test: true,
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(refunded.body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, code: 'already_refunded' });

    expect(TransactionDetailSchema.safeParse(detail.body).success).toBe(true);
    expect(detail.body).toMatchObject({ status: 'refunded', amountMinor: 1000, amountRefundedMinor: 1000, refunds: [refunded.body] });
    expect(traceEvents(detail.body)).toEqual(['created', 'approved', 'refund_requested', 'refund_succeeded']);
    expect(list.status).toBe(200);
    expect(RefundListSchema.safeParse(list.body).success).toBe(true);
    expect(list.body).toEqual({ data: [refunded.body], transactionReference: transaction.reference, amountMinor: 1000, amountRefundedMinor: 1000 });
    expect(sessionRead.body.status).toBe('completed');
    // Test-mode refunds go to the bank's test environment, once.
    expect(sandbox.bank.calls({ reference: refunded.body.reference })).toEqual([{ gateway: 'bank_direct', environment: 'test', operation: 'refund', reference: refunded.body.reference }]);

    const events = await delivered(env, endpoint);
    expect(events.map((e) => e.type)).toEqual(['charge.approved', 'charge.refunded']);
    expect(events[1]).toMatchObject({
      env: 'test',
      data: {
        transactionReference: transaction.reference,
        refundReference: refunded.body.reference,
        amountMinor: 1000,
        currency: 'VES',
        status: 'succeeded',
        reason: 'requested_by_customer',
        amountRefundedMinor: 1000,
        transactionAmountMinor: 1000,
        transactionStatus: 'refunded',
        sessionReference: session.reference,
        metadata: { orderId: 'order_42' },
      },
    });
  });

  it('takes two partial refunds that use up the amount, refusing more than remains with 400 and nothing left with 409', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const endpoint = await endpointAt(env, keys.secretTest, ['charge.refunded']);
    const { transaction } = await paidTransaction(sandbox, keys.secretTest);

    const first = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 600, reason: 'duplicate' });
    const afterFirst = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });
    const tooMuch = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 401 });
    const second = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 400 });
    const third = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 1 });
    const detail = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(afterFirst.body).toMatchObject({ status: 'approved', amountRefundedMinor: 600 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ statusCode: 400, code: 'refund_amount_exceeds_remaining', field: 'amountMinor' });
    expect(tooMuch.body.message).toContain('400');
    expect(third.status).toBe(409);
    expect(third.body.code).toBe('already_refunded');
    expect(detail.body).toMatchObject({ status: 'refunded', amountRefundedMinor: 1000 });
    expect(detail.body.refunds.map((r: { amountMinor: number }) => r.amountMinor)).toEqual([600, 400]);
    expect(traceEvents(detail.body)).toEqual(['created', 'approved', 'refund_requested', 'refund_succeeded', 'refund_requested', 'refund_succeeded']);

    const events = await delivered(env, endpoint);
    expect(events.map((e) => [e.type, e.data.amountMinor, e.data.amountRefundedMinor, e.data.transactionStatus])).toEqual([
      ['charge.refunded', 600, 600, 'approved'],
      ['charge.refunded', 400, 1000, 'refunded'],
    ]);
  });

  it('refuses to refund a declined transaction with 409, writing nothing', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 1000 });
    const declined = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });
    const reference = declined.body.transaction.reference;

    const refused = await refund(sandbox, keys.secretTest, reference);
    const list = await sandbox.request('GET', `/v1/transactions/${reference}/refunds`, { key: keys.secretTest });

    expect(declined.body.transaction.status).toBe('declined');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ statusCode: 409, code: 'transaction_not_refundable' });
    expect(list.body).toMatchObject({ data: [], amountRefundedMinor: 0 });
    const detail = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest });
    expect(traceEvents(detail.body)).toEqual(['created', 'declined']);
  });

  it('answers a refund the bank refuses as failed, with the bank code, a Spanish reason and charge.refund_failed; the amount is given back', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const endpoint = await endpointAt(env, keys.secretTest, ['charge.refund_failed']);
    const { transaction } = await paidTransaction(sandbox, keys.secretTest, REFUND_CARDS.fails);

    const failed = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 700 });
    const detail = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });
    // Nothing was refunded: the whole amount may be asked again (and this bank refuses it again).
    const whole = await refund(sandbox, keys.secretTest, transaction.reference);

    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      status: 'failed',
      amountMinor: 700,
      errorCode: '0057',
      declineReason: expect.stringMatching(/devolver/),
      detail: expect.stringContaining('closed'),
      processorReference: null,
    });
    expect(detail.body).toMatchObject({ status: 'approved', amountRefundedMinor: 0 });
    expect(traceEvents(detail.body)).toEqual(['created', 'approved', 'refund_requested', 'refund_failed']);
    expect(whole.body).toMatchObject({ status: 'failed', amountMinor: 1000 });

    const events = await delivered(env, endpoint);
    expect(events.map((e) => e.type)).toEqual(['charge.refund_failed', 'charge.refund_failed']);
    expect(events[0]!.data).toMatchObject({ refundReference: failed.body.reference, status: 'failed', errorCode: '0057', amountRefundedMinor: 0, transactionStatus: 'approved' });
  });

  it('leaves a refund the bank did not answer in time pending, and settles it once from the bank record when read a minute later', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const endpoint = await endpointAt(env, keys.secretTest);
    const { transaction } = await paidTransaction(sandbox, keys.secretTest, REFUND_CARDS.timesOut);
    const key = randomUUID();

    const posted = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 250 }, key);
    const early = await sandbox.request('GET', `/v1/transactions/${transaction.reference}/refunds`, { key: keys.secretTest });
    sandbox.advance(60);
    const [read, concurrentRead] = await Promise.all([
      sandbox.request('GET', `/v1/transactions/${transaction.reference}/refunds`, { key: keys.restrictedTest }),
      sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest }),
    ]);
    const replay = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 250 }, key);
    const detail = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });

    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({ status: 'pending', amountMinor: 250, processorReference: null });
    expect(early.body.data).toEqual([posted.body]);
    expect(read.status).toBe(200);
    expect(concurrentRead.status).toBe(200);
    expect(read.body.data).toEqual([expect.objectContaining({ reference: posted.body.reference, status: 'succeeded', processorReference: expect.stringMatching(/^RFD/) })]);
    expect(read.body.amountRefundedMinor).toBe(250);
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(detail.body).toMatchObject({ status: 'approved', amountRefundedMinor: 250 });
    expect(traceEvents(detail.body)).toEqual(['created', 'approved', 'refund_requested', 'refund_no_answer', 'refund_reconciled', 'refund_succeeded']);
    // The bank saw the refund once; it was only read after that.
    expect(sandbox.bank.calls({ reference: posted.body.reference, operation: 'refund' })).toHaveLength(1);
    expect(sandbox.bank.calls({ reference: posted.body.reference, operation: 'refund_status' }).length).toBeGreaterThanOrEqual(1);
    const events = (await delivered(env, endpoint)).filter((e) => e.type.startsWith('charge.refund'));
    expect(events.map((e) => [e.type, e.data.refundReference, e.data.amountRefundedMinor])).toEqual([['charge.refunded', posted.body.reference, 250]]);
  });

  it('keeps a refund the bank holds pending until the bank settles it, then a read settles it', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const { transaction } = await paidTransaction(sandbox, keys.secretTest, REFUND_CARDS.staysPending);

    const posted = await refund(sandbox, keys.secretTest, transaction.reference);
    const more = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 1 });
    sandbox.advance(60);
    const stillPending = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });
    sandbox.advance(600);
    const settled = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });

    expect(posted.status).toBe(202);
    expect(posted.body).toMatchObject({ status: 'pending', amountMinor: 1000 });
    // The pending refund holds the whole amount: nothing more may be refunded meanwhile.
    expect(more.status).toBe(409);
    expect(more.body.code).toBe('already_refunded');
    expect(stillPending.body).toMatchObject({ status: 'approved', amountRefundedMinor: 0, refunds: [expect.objectContaining({ status: 'pending' })] });
    expect(settled.body).toMatchObject({ status: 'refunded', amountRefundedMinor: 1000, refunds: [expect.objectContaining({ status: 'succeeded' })] });
    expect(traceEvents(settled.body)).toEqual(['created', 'approved', 'refund_requested', 'refund_pending', 'refund_reconciled', 'refund_succeeded']);
  });

  it('never refunds more than was approved when 10 refunds race with distinct keys, and never answers 500', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const endpoint = await endpointAt(env, keys.secretTest, ['charge.refunded']);
    const { transaction } = await paidTransaction(sandbox, keys.secretTest);

    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 300 })));
    const detail = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });

    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 400 || s === 409)).toBe(true);
    const made = answers.filter((a) => a.status === 200);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(made.length).toBeLessThanOrEqual(3);
    expect(made.every((a) => a.body.status === 'succeeded')).toBe(true);
    for (const refused of answers.filter((a) => a.status !== 200)) expect(['refund_amount_exceeds_remaining', 'refund_conflict']).toContain(refused.body.code);
    expect(detail.body.amountRefundedMinor).toBe(300 * made.length);
    expect(detail.body.refunds).toHaveLength(made.length);
    const bankRefunds = sandbox.bank.calls({ operation: 'refund' }).filter((c) => made.some((a) => a.body.reference === c.reference));
    expect(bankRefunds).toHaveLength(made.length);

    const events = await delivered(env, endpoint);
    expect(events.map((e) => e.data.amountRefundedMinor).sort((a, b) => a - b)).toEqual(made.map((_, i) => 300 * (i + 1)));
  });

  it('gives exactly one of 10 parallel whole refunds the amount; the others are told nothing remains', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const { transaction } = await paidTransaction(sandbox, keys.secretTest);

    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(sandbox, keys.secretTest, transaction.reference)));
    const detail = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });

    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(['already_refunded', 'refund_conflict']).toContain(refused.body.code);
    }
    expect(detail.body).toMatchObject({ status: 'refunded', amountRefundedMinor: 1000 });
  });

  it('refuses a read-only key (403) and asks for an Idempotency-Key; another merchant sees no such transaction', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const other = await sandbox.newMerchant();
    const { transaction } = await paidTransaction(sandbox, keys.secretTest);

    const readOnly = await refund(sandbox, keys.restrictedTest, transaction.reference);
    const noKey = await sandbox.request('POST', `/v1/transactions/${transaction.reference}/refunds`, { key: keys.secretTest, body: {} });
    const badReason = await refund(sandbox, keys.secretTest, transaction.reference, { reason: 'changed_mind' });
    const otherMerchant = await refund(sandbox, other.keys.secretTest, transaction.reference);
    const liveKey = await refund(sandbox, keys.secretLive, transaction.reference);

    expect(readOnly.status).toBe(403);
    expect(readOnly.body.code).toBe('insufficient_permissions');
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe('idempotency_key_missing');
    expect(badReason.status).toBe(400);
    expect(badReason.body.field).toBe('reason');
    expect(otherMerchant.status).toBe(404);
    expect(liveKey.status).toBe(404);
    const detail = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ status: 'approved', amountRefundedMinor: 0, refunds: [] });
  });
});

describe('GET /v1/analytics/summary with refunds', () => {
  const env = sandboxWithReceiver();

  it('sums refunded amounts per currency beside approved ones, live only, counting a refunded transaction as approved', async () => {
    const { sandbox } = env;
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'direct-key' }));
    const from = new Date(sandbox.clock.now()).toISOString();
    const whole = await paidTransaction(sandbox, keys.secretLive, REFUND_CARDS.succeeds, 1000);
    const part = await paidTransaction(sandbox, keys.secretLive, REFUND_CARDS.succeeds, 2500);
    const test = await paidTransaction(sandbox, keys.secretTest, REFUND_CARDS.succeeds, 99_999);
    const refunds = [
      await refund(sandbox, keys.secretLive, whole.transaction.reference),
      await refund(sandbox, keys.secretLive, part.transaction.reference, { amountMinor: 300 }),
      await refund(sandbox, keys.secretTest, test.transaction.reference),
    ];
    sandbox.advance(1);
    const to = new Date(sandbox.clock.now()).toISOString();

    const summary = await sandbox.request('GET', `/v1/analytics/summary?from=${from}&to=${to}`, { key: keys.secretLive });

    expect(refunds.map((r) => [r.status, r.body.status])).toEqual([
      [200, 'succeeded'],
      [200, 'succeeded'],
      [200, 'succeeded'],
    ]);
    // Live refunds went to the bank's live environment with the merchant's credentials.
    expect(sandbox.bank.calls({ reference: refunds[0]!.body.reference })).toEqual([{ gateway: 'bank_direct', environment: 'live', operation: 'refund', reference: refunds[0]!.body.reference }]);
    expect(summary.status).toBe(200);
    expect(summary.body.byCurrency.find((c: { currency: string }) => c.currency === 'VES')).toEqual({
      currency: 'VES',
      counts: { pending: 0, approved: 1, declined: 0, failed: 0, refunded: 1 },
      approvedAmountMinor: 3500,
      refundedAmountMinor: 1300,
      refundedExternallyAmountMinor: 0,
      approvalRate: 1,
    });
  });
});

describe('refunds at the other gateways and a bank that fails', () => {
  const env = sandboxWithReceiver({ gatewayTimeoutMs: GATEWAY_TIMEOUT_MS });

  /** A live USD payment at the card processor: the checkout opens the pending payment, the card is charged against it. */
  async function usdPayment(key: string, amountMinor: number) {
    const session = await openSession(env.sandbox, key, { amountMinor, currency: 'USD' });
    await env.sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    const paid = await checkoutCharge(env.sandbox, session.reference, { document: null });
    expect(paid.body.transaction.status).toBe('approved');
    return paid.body.transaction.reference as string;
  }

  it('voids a whole USD refund on the day of the charge at the processor, and refunds a partial one or a later day', async () => {
    const { sandbox } = env;
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'card_processor', JSON.stringify({ apiKey: 'processor-key' }));
    const endpoint = await endpointAt(env, keys.secretLive, ['charge.refunded']);
    const sameDay = await usdPayment(keys.secretLive, 2500);
    const partial = await usdPayment(keys.secretLive, 2500);
    const later = await usdPayment(keys.secretLive, 2500);

    const voided = await refund(sandbox, keys.secretLive, sameDay);
    const part = await refund(sandbox, keys.secretLive, partial, { amountMinor: 1000 });
    sandbox.advance(86_400);
    const refunded = await refund(sandbox, keys.secretLive, later);

    expect(voided.body).toMatchObject({ status: 'succeeded', method: 'void', amountMinor: 2500, currency: 'USD', test: false, processorReference: expect.stringMatching(/^VOID/) });
    expect(part.body).toMatchObject({ status: 'succeeded', method: 'refund', amountMinor: 1000, processorReference: expect.stringMatching(/^RFD/) });
    expect(refunded.body).toMatchObject({ status: 'succeeded', method: 'refund', amountMinor: 2500 });
    expect(sandbox.bank.calls({ reference: voided.body.reference })).toEqual([{ gateway: 'card_processor', environment: 'live', operation: 'void', reference: voided.body.reference }]);
    expect(sandbox.bank.calls({ reference: refunded.body.reference }).map((c) => c.operation)).toEqual(['refund']);
    const detail = await sandbox.request('GET', `/v1/transactions/${sameDay}`, { key: keys.secretLive });
    expect(detail.body).toMatchObject({ status: 'refunded', amountRefundedMinor: 2500 });

    const events = await delivered(env, endpoint);
    expect(events.map((e) => [e.data.transactionReference, e.data.method, e.data.amountRefundedMinor])).toEqual([
      [sameDay, 'void', 2500],
      [partial, 'refund', 1000],
      [later, 'refund', 2500],
    ]);
  });

  it('settles a refund the bank answered with a 5xx from its record at once: no record, so failed processor_unavailable and the amount given back', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const { transaction } = await paidTransaction(sandbox, keys.secretTest);
    sandbox.bank.setFaults({ failNextRefunds: 1 });

    const failed = await refund(sandbox, keys.secretTest, transaction.reference, { amountMinor: 400 }).finally(() => sandbox.bank.setFaults({ failNextRefunds: 0 }));
    const retried = await refund(sandbox, keys.secretTest, transaction.reference);

    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', errorCode: 'processor_unavailable', declineReason: expect.stringMatching(/banco/) });
    expect(sandbox.bank.calls({ reference: failed.body.reference }).map((c) => c.operation)).toEqual(['refund', 'refund_status']);
    expect(retried.body).toMatchObject({ status: 'succeeded', amountMinor: 1000 });
  });

  it('refunds a server-to-server charge of a stored card, naming the card in charge.refunded', async () => {
    const { sandbox } = env;
    const { keys } = await otpMerchant(sandbox);
    const endpoint = await endpointAt(env, keys.secretLive, ['charge.refunded']);
    await payWithOtp(sandbox, keys.secretLive, 'cust_refund');
    const stored = await storedCard(sandbox, keys.secretLive, 'cust_refund');
    const charged = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken, metadata: { orderId: 'o_7' } });
    expect(charged.body.status).toBe('approved');

    const refunded = await refund(sandbox, keys.secretLive, charged.body.reference, { amountMinor: 500, reason: 'fraudulent' });

    expect(refunded.body).toMatchObject({ status: 'succeeded', amountMinor: 500, reason: 'fraudulent' });
    expect(sandbox.bank.calls({ reference: refunded.body.reference })).toEqual([{ gateway: 'bank_otp', environment: 'live', operation: 'refund', reference: refunded.body.reference }]);
    const events = await delivered(env, endpoint);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ transactionReference: charged.body.reference, svcToken: stored.svcToken, amountRefundedMinor: 500, transactionStatus: 'approved', metadata: { orderId: 'o_7' } }),
    ]);
    expect(events[0]!.data).not.toHaveProperty('sessionReference');
  });
});
