import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('a bank that does not answer', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 300 });
  });
  afterAll(() => sandbox.stop());

  it('leaves a timed-out charge pending, refuses new charges meanwhile, and reconciles it from the bank without charging twice', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);

    const timedOut = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.timeout) });
    const meanwhile = await checkoutCharge(sandbox, session.reference);
    const tooEarly = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    sandbox.advance(61);
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);

    const txn = timedOut.body.transaction.reference;
    expect(timedOut.status).toBe(202);
    expect(timedOut.body).toMatchObject({ transaction: { status: 'pending' }, session: { status: 'processing' }, nextAction: null });
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.code).toBe('charge_in_flight');
    expect(tooEarly.body.status).toBe('processing');
    expect(page.body).toMatchObject({ status: 'completed', lastTransaction: { reference: txn, status: 'approved' } });
    expect(sandbox.bank.calls({ reference: txn, operation: 'charge' })).toHaveLength(1);
    expect(sandbox.bank.calls({ reference: txn, operation: 'status' }).length).toBeGreaterThan(0);
    const detail = await sandbox.request('GET', `/v1/transactions/${txn}`, { key: keys.secretTest });
    expect(detail.body.trace.map((t: { event: string }) => t.event)).toEqual(['created', 'bank_no_answer', 'reconciled', 'approved']);
  });

  it('fails an attempt whose charge the bank answered with a 5xx and has no record of, and lets the buyer retry', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 1 });
    sandbox.bank.setFaults({ failNextCharges: 1 });

    const failed = await checkoutCharge(sandbox, session.reference);
    const retried = await checkoutCharge(sandbox, session.reference);

    expect(failed.status).toBe(200);
    // The buyer reads a generic failure; the transaction keeps the bank's 0096 for the merchant (issue 21 finding 6).
    expect(failed.body).toMatchObject({ transaction: { status: 'failed', errorCode: 'processing_error' }, session: { status: 'failed', attemptsRemaining: 1 } });
    const detail = await sandbox.request('GET', `/v1/transactions/${failed.body.transaction.reference}`, { key: keys.secretTest });
    expect(detail.body.errorCode).toBe('0096');
    expect(retried.body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed' } });
    // The charge POST is never repeated; only the status read that settled it is safe to repeat.
    const calls = sandbox.bank.calls({ reference: failed.body.transaction.reference }).map((c) => c.operation);
    expect(calls).toEqual(['charge', 'status']);
  });
});
