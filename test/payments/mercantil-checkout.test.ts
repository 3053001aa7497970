import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { REASONS } from '../../shared/connectors/mercantil/outcomes.ts';
import { MERCANTIL_TEST_DATA, SIMULATOR_CODES } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { card, checkoutCharge, eventsOf, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const credit = card(MERCANTIL_TEST_DATA.credit.cardNumber, { expMonth: 1, expYear: 2025, cvv: '123' });
const debit = card(MERCANTIL_TEST_DATA.debit.cardNumber, { expMonth: 11, expYear: 2040, cvv: '111' });
const debitHolder = { type: 'V', id: '999999' };

describe('Checkout on Banco Mercantil (VES) through its simulator', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 1_500 });
  });
  afterAll(() => sandbox.stop());

  /** A merchant whose VES goes to Mercantil in test mode, with the simulator's test credentials loaded. */
  const mercantilMerchant = async () => {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    return { merchant, keys };
  };
  const charge = (sessionReference: string, payment: Record<string, unknown>, document: Record<string, unknown> = { type: 'V', id: '18366876' }) =>
    sandbox.request('POST', '/v1/checkout/charge', {
      body: { sessionReference, card: payment, document },
      headers: { 'idempotency-key': randomUUID(), 'user-agent': BROWSER },
    });
  const otp = (sessionReference: string, transactionReference: string, body: Record<string, unknown>) =>
    sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference, transactionReference, ...body }, headers: { 'user-agent': BROWSER } });

  it("pays a credit card (tdc) at once; the bank sees the buyer's IP and browser", async () => {
    const { merchant, keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 250_075 });
    const paid = await charge(session.reference, credit);

    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed' } });
    const pay = sandbox.mercantil.calls('pay').at(-1)!;
    expect(pay.body.client_identify).toEqual({ ipaddress: expect.stringMatching(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/), browser_agent: BROWSER });
    expect((pay.body.transaction as Record<string, unknown>).amount).toBe('2500.75');
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.approved']);
  });

  it("sends the bank's own test debit card (it fails Luhn) in test mode, through getauth, the code, then pay", async () => {
    const { merchant, keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 500 });
    const asked = await charge(session.reference, debit, debitHolder);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ session: { status: 'otp_requested' }, nextAction: { type: 'otp' } });
    const txn = asked.body.transaction.reference;

    const missing = await otp(session.reference, txn, { code: '11111111' });
    expect(missing.status).toBe(400);
    const paid = await otp(session.reference, txn, { code: '11111111', cvv: '111', accountType: 'CC' });

    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed' } });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['session.otp_requested', 'session.otp_confirmed', 'charge.approved']);
    expect(sandbox.mercantil.calls().slice(-2).map((c) => c.operation)).toEqual(['getauth', 'pay']);
  });

  const clave = MERCANTIL_TEST_DATA.debit.otp;
  const phoneKey = { kind: 'phone_key', bankName: 'Mercantil', label: 'Clave telefónica', length: 8, inputType: 'numeric' };

  it("announces what getauth asks for (the clave telefónica, 8 digits) in the charge answer and the page's session read", async () => {
    const { keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const asked = await charge(session.reference, debit, debitHolder);
    expect(asked.body.nextAction).toEqual({ type: 'otp', entriesRemaining: 3, factor: phoneKey });
    const read = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(read.body).toMatchObject({ status: 'otp_requested', nextAction: { type: 'otp', entriesRemaining: 3, factor: phoneKey } });
    // A credit card asks nothing: no code step.
    const other = await openSession(sandbox, keys.secretTest);
    expect((await charge(other.reference, credit)).body.nextAction).toBeNull();
  });

  it('takes a wrong clave, then a wrong account type, back to the code step as wrong entries, not failures of the session', async () => {
    const { merchant, keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 1 });
    const txn = (await charge(session.reference, debit, debitHolder)).body.transaction.reference;

    const wrongClave = await otp(session.reference, txn, { code: '22222222', cvv: '111', accountType: 'CC' });
    expect(wrongClave.status).toBe(422);
    expect(wrongClave.body).toMatchObject({ code: 'otp_invalid', message: 'The bank refused the code or the account type. 2 entries remain.' });
    expect(wrongClave.body).not.toHaveProperty('field');
    const read = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(read.body).toMatchObject({ status: 'otp_requested', attemptsRemaining: 2, nextAction: { entriesRemaining: 2, factor: phoneKey } });

    const wrongAccount = await otp(session.reference, txn, { code: clave, cvv: '111', accountType: 'CA' });
    expect(wrongAccount.body).toMatchObject({ code: 'otp_invalid', message: 'The bank refused the code or the account type. 1 entry remains.' });

    const paid = await otp(session.reference, txn, { code: clave, cvv: '111', accountType: 'CC' });
    expect(paid.body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed' } });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual([
      'session.otp_requested',
      'session.otp_confirmed',
      'session.otp_requested',
      'session.otp_confirmed',
      'session.otp_requested',
      'session.otp_confirmed',
      'charge.approved',
    ]);
    const detail = await sandbox.request('GET', `/v1/transactions/${txn}`, { key: keys.secretTest });
    expect(detail.body.trace.filter((t: { event: string }) => t.event === 'otp_refused').map((t: { detail: string }) => t.detail)).toEqual([
      expect.stringContaining(SIMULATOR_CODES.WRONG_OTP),
      expect.stringContaining(SIMULATOR_CODES.WRONG_OTP),
    ]);
  });

  it('ends the attempt declined (otp_attempts_exceeded, one failure) at the third refused entry; maxFailures closes the session', async () => {
    const { merchant, keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 1 });
    const txn = (await charge(session.reference, debit, debitHolder)).body.transaction.reference;
    for (const entries of [2, 1]) {
      expect((await otp(session.reference, txn, { code: '22222222', cvv: '111', accountType: 'CC' })).body.message).toContain(`${entries} entr`);
    }
    const third = await otp(session.reference, txn, { code: '22222222', cvv: '111', accountType: 'CC' });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ transaction: { status: 'declined', errorCode: 'otp_attempts_exceeded' }, session: { status: 'failed', attemptsRemaining: 1 }, nextAction: null });

    const second = await charge(session.reference, { ...credit, cvv: '999' });
    expect(second.body).toMatchObject({ transaction: { status: 'declined' }, session: { status: 'expired', closedReason: 'max_failures_reached' } });
    const declines = (await eventsOf(sandbox, merchant.id, 'test', session.reference)).filter((e) => e.type === 'charge.declined');
    expect(declines.map((e) => (e.data as { errorCode: string }).errorCode)).toEqual(['otp_attempts_exceeded', SIMULATOR_CODES.WRONG_CVV]);
    expect((declines[1]!.data as { declineReason: string }).declineReason).toBe(REASONS.declined);
    // Three entries reached the bank, each a pay of the same invoice: the wrong ones left it payable.
    expect(sandbox.mercantil.calls('pay').filter((c) => c.invoice === sandbox.mercantil.calls('pay').at(-4)!.invoice)).toHaveLength(3);
  });

  it('lets the buyer leave the code step for another card: the attempt ends declined otp_abandoned, one failure, nothing sent to the bank', async () => {
    const { merchant, keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 2 });
    const txn = (await charge(session.reference, debit, debitHolder)).body.transaction.reference;
    const pays = sandbox.mercantil.calls('pay').length;

    expect((await otp(session.reference, txn, {})).body).toMatchObject({ code: 'parameter_missing', field: 'code' });
    expect((await otp(session.reference, txn, { abandon: true, code: clave })).body).toMatchObject({ code: 'parameter_invalid', field: 'abandon' });
    const left = await otp(session.reference, txn, { abandon: true });
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({
      transaction: { status: 'declined', errorCode: 'otp_abandoned', declineReason: 'Elegiste pagar con otra tarjeta: el pago anterior no se confirmó.' },
      session: { status: 'failed', attemptsRemaining: 2 },
      nextAction: null,
    });
    expect(sandbox.mercantil.calls('pay')).toHaveLength(pays);
    // The abandoned step takes no code any more; the session takes another card.
    expect((await otp(session.reference, txn, { code: clave, cvv: '111', accountType: 'CC' })).body.code).toBe('otp_not_requested');
    expect((await charge(session.reference, credit)).body).toMatchObject({ transaction: { status: 'approved' }, session: { status: 'completed' } });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['session.otp_requested', 'charge.declined', 'charge.approved']);
  });

  it('leaves a charge whose answer never came pending, then settles it from the bank search', async () => {
    const { keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    sandbox.mercantil.injectFault('pay', 'timeout');
    const late = await charge(session.reference, credit);
    expect(late.status).toBe(202);
    expect(late.body.transaction.status).toBe('pending');

    sandbox.advance(61);
    // The checkout page's read settles an attempt left pending past a minute from the bank's record.
    await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'completed', lastTransaction: { status: 'approved' } });
    expect(sandbox.mercantil.calls('search').at(-1)!.invoice).toBe(sandbox.mercantil.calls('pay').at(-1)!.invoice);
  });

  it('refuses a refund with 409 refund_unsupported: the bank publishes no card refund', async () => {
    const { keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const paid = await charge(session.reference, credit);
    const refund = await sandbox.request('POST', `/v1/transactions/${paid.body.transaction.reference}/refunds`, {
      key: keys.secretTest,
      body: {},
      headers: { 'idempotency-key': randomUUID() },
    });

    expect(refund.status).toBe(409);
    expect(refund.body).toMatchObject({ code: 'refund_unsupported', message: expect.stringContaining('no refund') });
  });

  it('refuses the Luhn-failing test card on a live key (only test mode sends it to the bank)', async () => {
    const { keys } = await mercantilMerchant();
    const session = await openSession(sandbox, keys.secretLive);
    const refused = await charge(session.reference, debit, debitHolder);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_payment_data', field: 'card.number' });
  });
});
