import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { card, checkoutCharge, eventsOf, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('OTP confirmation', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const otp = (sessionReference: string, transactionReference: string, code: string) =>
    sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference, transactionReference, code } });

  it('asks for an OTP, refuses a wrong code without counting it, and completes with 123456', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 0 });

    const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.otp) });
    const txn = charged.body.transaction.reference;
    const during = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    const wrong = await otp(session.reference, txn, '000000');
    const right = await otp(session.reference, txn, '123456');

    expect(charged.status).toBe(202);
    expect(charged.body).toMatchObject({ transaction: { status: 'pending' }, session: { status: 'otp_requested' }, nextAction: { type: 'otp', entriesRemaining: 3 } });
    expect(during.body.status).toBe('otp_requested');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'otp_invalid', message: 'The code is not correct. 2 entries remain.' });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed', attemptsRemaining: 1 } });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['session.otp_requested', 'session.otp_confirmed', 'charge.approved']);
    const detail = await sandbox.request('GET', `/v1/transactions/${txn}`, { key: keys.secretTest });
    expect(detail.body.trace.map((t: { event: string }) => t.event)).toEqual(['created', 'otp_requested', 'otp_invalid', 'otp_confirmed', 'approved']);
    expect(sandbox.bank.calls({ reference: txn }).map((c) => c.operation)).toEqual(['charge', 'otp', 'otp', 'authorize']);
  });

  it('ends the attempt declined after three wrong codes, as one failure of the session', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 3 });
    const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.otp) });
    const txn = charged.body.transaction.reference;

    const entries = [];
    for (const code of ['111111', '222222', '333333']) entries.push(await otp(session.reference, txn, code));

    expect(entries.map((e) => e.status)).toEqual([422, 422, 200]);
    expect(entries[2]!.body).toMatchObject({
      transaction: { status: 'declined', errorCode: 'otp_attempts_exceeded' },
      session: { status: 'failed', attemptsRemaining: 3 },
    });
    const late = await otp(session.reference, txn, '123456');
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('otp_not_requested');
  });

  it('declines an OTP not confirmed by expiresAt and closes the session (expired) at that point; a late code finds it closed', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { expiresInMinutes: 2 });
    const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.otp) });
    const beforeExpiry = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });

    // The code must be confirmed before expiresAt: at expiry the timed job rejects the attempt, which closes the session.
    sandbox.advance(180);
    await sandbox.background.drain();
    const afterExpiry = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    const lateCode = await otp(session.reference, charged.body.transaction.reference, '123456');

    expect(beforeExpiry.status).toBe(409);
    expect(beforeExpiry.body.code).toBe('charge_in_flight');
    expect(afterExpiry.body).toMatchObject({ status: 'expired', closedReason: 'expired', lastTransaction: { status: 'declined', errorCode: 'otp_expired' } });
    expect(lateCode.status).toBe(410);
    expect(lateCode.body.code).toBe('session_expired');
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.declined', 'session.expired', 'session.otp_requested']);
    expect(events.find((e) => e.type === 'session.expired')!.data).toMatchObject({ reason: 'expired', failureCount: 1 });
    const retry = await checkoutCharge(sandbox, session.reference);
    expect(retry.status).toBe(410);
  });

  it('charges through the OTP bank with live credentials: every charge asks for a code', async () => {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_otp', USD: 'card_processor' } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_otp', JSON.stringify({ apiKey: 'otp-bank-key' }));
    const session = await openSession(sandbox, keys.secretLive);

    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.visa) });
    const confirmed = await otp(session.reference, charged.body.transaction.reference, '123456');

    expect(page.body).toMatchObject({ requiresOtp: true, requiresDocument: true, test: false });
    expect(charged.body.session.status).toBe('otp_requested');
    expect(confirmed.body).toMatchObject({ transaction: { status: 'approved', test: false }, session: { status: 'completed' } });
    expect(sandbox.bank.calls({ reference: charged.body.transaction.reference })).toContainEqual({
      gateway: 'bank_otp',
      environment: 'live',
      operation: 'authorize',
      reference: charged.body.transaction.reference,
    });
  });
});
