import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { TransactionDetailSchema, TransactionListSchema } from '../../shared/schemas/transaction-responses.ts';
import { expectRateLimited } from '../support/assertions.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('transactions, analytics and the charge rate limit', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('lists the mode\'s transactions newest first, filtered by status, session and date, with pagination', async () => {
    const { keys } = await sandbox.newMerchant();
    const first = await openSession(sandbox, keys.secretTest, { maxFailures: 3 });
    const declined = await checkoutCharge(sandbox, first.reference, { card: card(TEST_CARDS.insufficientFunds) });
    sandbox.advance(10);
    const approved = await checkoutCharge(sandbox, first.reference);
    const second = await openSession(sandbox, keys.secretTest);
    sandbox.advance(10);
    const other = await checkoutCharge(sandbox, second.reference);
    const [a, b, c] = [declined, approved, other].map((r) => r.body.transaction.reference as string);

    const list = (query: string) => sandbox.request('GET', `/v1/transactions${query}`, { key: keys.secretTest });
    const all = await list('');
    const page2 = await list('?pageSize=2&page=2');
    const bySession = await list(`?sessionReference=${first.reference}`);
    const byStatus = await list('?status=declined');
    const byDate = await list(`?createdFrom=${encodeURIComponent(approved.body.transaction.createdAt)}&createdTo=${encodeURIComponent(other.body.transaction.createdAt)}`);
    const live = await sandbox.request('GET', '/v1/transactions', { key: keys.secretLive });

    expect(TransactionListSchema.safeParse(all.body).success).toBe(true);
    expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 10 });
    expect(all.body.data.map((t: { reference: string }) => t.reference)).toEqual([c, b, a]);
    expect(page2.body.data.map((t: { reference: string }) => t.reference)).toEqual([a]);
    expect(bySession.body.data.map((t: { reference: string }) => t.reference)).toEqual([b, a]);
    expect(byStatus.body.data.map((t: { reference: string }) => t.reference)).toEqual([a]);
    expect(byDate.body.data.map((t: { reference: string }) => t.reference)).toEqual([b]);
    expect(live.body).toMatchObject({ data: [], total: 0 });
  });

  it('shows one transaction with its technical detail and trace, and hides it from other merchants', async () => {
    const { keys } = await sandbox.newMerchant();
    const stranger = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const charge = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.processorError) });
    const reference = charge.body.transaction.reference;

    const detail = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest });
    const foreign = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: stranger.keys.secretTest });
    const malformed = await sandbox.request('GET', '/v1/transactions/cs_nope', { key: keys.secretTest });

    expect(detail.status).toBe(200);
    expect(TransactionDetailSchema.safeParse(detail.body).success).toBe(true);
    expect(detail.body).toMatchObject({
      reference,
      status: 'failed',
      errorCode: '0096',
      detail: 'System malfunction at the issuer switch',
      gateway: 'bank_direct',
      cardholderName: 'Ana Pérez',
      document: { type: 'V', id: '12345678' },
      card: { brand: 'visa', lastFour: '0119' },
    });
    expect(detail.body.trace.map((t: { event: string }) => t.event)).toEqual(['created', 'failed']);
    expect(foreign.status).toBe(404);
    expect(malformed.status).toBe(400);
  });

  it('summarises live transactions of a date range by currency and status, without test ones', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'direct-key' }));
    const from = new Date(sandbox.clock.now()).toISOString();
    for (const [number, amountMinor] of [[TEST_CARDS.visa, 1000], [TEST_CARDS.mastercard, 2500], [TEST_CARDS.insufficientFunds, 700]] as const) {
      const session = await openSession(sandbox, keys.secretLive, { amountMinor });
      await checkoutCharge(sandbox, session.reference, { card: card(number) });
    }
    const testSession = await openSession(sandbox, keys.secretTest, { amountMinor: 99_999 });
    await checkoutCharge(sandbox, testSession.reference);
    sandbox.advance(1);
    const to = new Date(sandbox.clock.now()).toISOString();

    const res = await sandbox.request('GET', `/v1/analytics/summary?from=${from}&to=${to}`, { key: keys.secretTest });
    const reversed = await sandbox.request('GET', `/v1/analytics/summary?from=${to}&to=${from}`, { key: keys.secretTest });

    expect(res.status).toBe(200);
    expect(res.body.byCurrency.find((c: { currency: string }) => c.currency === 'VES')).toEqual({
      currency: 'VES',
      counts: { pending: 0, approved: 2, declined: 1, failed: 0, refunded: 0 },
      approvedAmountMinor: 3500,
      refundedAmountMinor: 0,
      refundedExternallyAmountMinor: 0,
      approvalRate: 0.6667,
    });
    expect(res.body.approvalRate).toBe(0.6667);
    expect(reversed.status).toBe(400);
  });

  it('limits POST /v1/checkout/charge with the charge class of the session\'s merchant (429 with Retry-After)', async () => {
    const { keys } = await sandbox.newMerchant({ changes: { rateLimits: { charge: { perMinute: 100, perDay: 2 } } } });
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 5 });

    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) }));

    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(expectRateLimited(answers[2]!)).toBeGreaterThan(0);
  });
});
