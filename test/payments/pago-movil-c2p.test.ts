import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_CREDENTIAL_SET, SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { decryptField } from '../../shared/connectors/mercantil/field-cipher.ts';
import { PAGO_MOVIL_REASONS } from '../../shared/connectors/mercantil/pago-movil-outcomes.ts';
import { invoiceNumber } from '../../shared/connectors/mercantil/requests.ts';
import { PAGO_MOVIL_TEST_DATA, SIMULATOR_PM_CODES } from '../../infra/sandbox/mercantil/pago-movil-desk.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';
import { eventsOf, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36';
/** The merchant's phone affiliated to pago móvil at Mercantil (origin_mobile_number of every C2P body). */
const PAYEE_PHONE = '04241112233';
/** The bank's sandbox payer (reference §1.5), as a buyer types it. */
const PAYER = { bankCode: '0105', phone: '0414-123.45.67', documentType: 'V', documentId: '9999999' };
const open = (encrypted: unknown) => decryptField(String(encrypted), SIMULATOR_CREDENTIAL_SET.secretKey);

describe('Pago móvil C2P through the API on Banco Mercantil (its simulator)', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 1_500 });
  });
  afterAll(() => sandbox.stop());

  /** A merchant on Mercantil for VES cards and C2P, in test mode, with the simulator's credentials. */
  const c2pMerchant = async (pagoMovil: Merchant['pagoMovil'] = { gateways: { pago_movil_c2p: 'mercantil' }, payee: { phone: PAYEE_PHONE, rif: 'J-07013380-5' } }) => {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true }, pagoMovil } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    return { merchant, keys };
  };
  const askKey = (sessionReference: string, payer: Record<string, unknown> = PAYER) =>
    sandbox.request('POST', '/v1/checkout/pago-movil/key', { body: { sessionReference, ...payer }, headers: { 'user-agent': BROWSER } });
  const charge = (sessionReference: string, body: Record<string, unknown> = {}, idempotencyKey = randomUUID()) =>
    sandbox.request('POST', '/v1/checkout/pago-movil/charge', {
      body: { sessionReference, ...PAYER, key: PAGO_MOVIL_TEST_DATA.key, ...body },
      headers: { 'idempotency-key': idempotencyKey, 'user-agent': BROWSER },
    });
  const c2pCalls = (invoice: string) => sandbox.mercantil.calls('c2p').filter((c) => c.invoice === invoice);

  it('sends the key, then debits the buyer: approved, session completed, charge.approved with the masked phone; every field the bank got is the reference\'s', async () => {
    const { merchant, keys } = await c2pMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 250_075 });
    expect(session.paymentMethods).toEqual(['card', 'pago_movil_c2p']);

    const key = await askKey(session.reference);
    expect(key.status).toBe(200);
    expect(key.body).toEqual({ sent: true, sessionReference: session.reference, keysRemaining: 2 });
    const scp = sandbox.mercantil.calls('scp').at(-1)!.body;
    expect(scp.client_identify).toMatchObject({ browser_agent: BROWSER });
    const scpInfo = scp.transaction_scpInfo as Record<string, unknown>;
    expect([open(scpInfo.destination_mobile_number), open(scpInfo.destination_id)]).toEqual(['584141234567', 'V9999999']);

    const paid = await charge(session.reference);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ transaction: { status: 'approved', card: null }, session: { status: 'completed' }, nextAction: null });
    const txn = paid.body.transaction;
    expect(txn.paymentMethod).toEqual({
      type: 'pago_movil_c2p',
      pagoMovil: { bankCode: '0105', bankName: 'Mercantil', phone: '*******4567', reference: txn.processorReference, amountReceivedMinor: null },
    });

    // Contract: the compra as the bank received it, every field (reference §1: payment/c2p, trx_type compra).
    const [compra] = c2pCalls(invoiceNumber(txn.reference));
    const body = compra!.body.transaction_c2p as Record<string, unknown>;
    expect({ ...body, destination_id: open(body.destination_id), destination_mobile_number: open(body.destination_mobile_number), origin_mobile_number: open(body.origin_mobile_number), twofactor_auth: open(body.twofactor_auth) }).toEqual({
      amount: '2500.75',
      currency: 'ves',
      destination_bank_id: 105,
      destination_id: 'V9999999',
      destination_mobile_number: '584141234567',
      origin_mobile_number: '584241112233',
      payment_reference: '',
      trx_type: 'compra',
      payment_method: 'c2p',
      invoice_number: invoiceNumber(txn.reference),
      twofactor_auth: PAGO_MOVIL_TEST_DATA.key,
    });
    expect(compra!.body.merchant_identify).toEqual({ integratorId: SIMULATOR_CREDENTIAL_SET.integratorId, merchantId: SIMULATOR_CREDENTIAL_SET.merchantId, terminalId: SIMULATOR_CREDENTIAL_SET.terminalId });

    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.approved']);
    expect(events[0]!.data).toMatchObject({ paymentMethod: { type: 'pago_movil_c2p', pagoMovil: { phone: '*******4567', bankCode: '0105' } } });
    // The merchant reads the phone whole in the detail, masked in the list; the cédula is the transaction's document.
    const detail = await sandbox.request('GET', `/v1/transactions/${txn.reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ paymentMethod: { pagoMovil: { phone: '04141234567' } }, document: { type: 'V', id: '9999999' }, gateway: 'mercantil' });
    const list = await sandbox.request('GET', `/v1/transactions?sessionReference=${session.reference}`, { key: keys.secretTest });
    expect(list.body.data[0].paymentMethod.pagoMovil.phone).toBe('*******4567');
    // The key is nowhere: not in the answer, the stored transaction, the session or the events.
    const stored = JSON.stringify([paid.body, await sandbox.deps.transactions.get(txn.reference), await sandbox.deps.sessions.get(session.reference), events]);
    expect(stored).not.toContain(PAGO_MOVIL_TEST_DATA.key);
  });

  it("declines a wrong key and a payer without funds with the bank's code, as card declines are; the session stays open", async () => {
    const { merchant, keys } = await c2pMerchant();
    const session = await openSession(sandbox, keys.secretTest);

    const wrongKey = await charge(session.reference, { key: '12345678' });
    const poor = await charge(session.reference, { phone: '04140000002' });

    expect(wrongKey.status).toBe(200);
    expect(wrongKey.body).toMatchObject({ transaction: { status: 'declined', declineReason: PAGO_MOVIL_REASONS.declined }, session: { status: 'failed' } });
    expect(poor.body).toMatchObject({ transaction: { status: 'declined', paymentMethod: { pagoMovil: { phone: '*******0002' } } }, session: { status: 'failed' } });
    const declines = (await eventsOf(sandbox, merchant.id, 'test', session.reference)).filter((e) => e.type === 'charge.declined');
    expect(declines.map((e) => (e.data as { errorCode: string }).errorCode)).toEqual([SIMULATOR_PM_CODES.WRONG_KEY, SIMULATOR_PM_CODES.INSUFFICIENT_FUNDS]);
  });

  it('leaves a debit whose answer never came pending, then settles it from the search of the day; it is never sent twice', async () => {
    const { keys } = await c2pMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    sandbox.mercantil.injectFault('c2p', 'timeout');
    const idempotencyKey = randomUUID();
    const late = await charge(session.reference, {}, idempotencyKey);
    expect(late.status).toBe(202);
    expect(late.body.transaction.status).toBe('pending');
    const again = await charge(session.reference, {}, idempotencyKey);
    expect(again.status).toBe(202);
    const other = await charge(session.reference);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('charge_in_flight');

    sandbox.advance(61);
    await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'completed', lastTransaction: { status: 'approved', paymentMethod: { type: 'pago_movil_c2p' } } });
    const invoice = invoiceNumber(late.body.transaction.reference);
    expect(c2pCalls(invoice)).toHaveLength(1);
    const search = sandbox.mercantil.calls('mobile-search').at(-1)!.body.search_by as Record<string, unknown>;
    expect(search).toMatchObject({ payment_reference: '', currency: 'ves' });
    expect(open(search.destination_mobile_number)).toBe('584141234567');
  });

  it('refunds a debit whole the same day by anulacion (void), and part of one after its day by vuelto to the buyer', async () => {
    const { merchant, keys } = await c2pMerchant();
    const refund = (reference: string, body: Record<string, unknown>) =>
      sandbox.request('POST', `/v1/transactions/${reference}/refunds`, { key: keys.secretTest, body, headers: { 'idempotency-key': randomUUID() } });

    const first = (await charge((await openSession(sandbox, keys.secretTest, { amountMinor: 5_000 })).reference)).body.transaction;
    const voided = await refund(first.reference, {});
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'succeeded', method: 'void', amountMinor: 5_000 });
    const anulacion = c2pCalls(invoiceNumber(voided.body.reference))[0]!.body.transaction_c2p as Record<string, unknown>;
    expect(anulacion).toMatchObject({ trx_type: 'anulacion', payment_method: 'c2p', payment_reference: first.processorReference, amount: '50.00', twofactor_auth: '' });

    const second = (await charge((await openSession(sandbox, keys.secretTest, { amountMinor: 8_000 })).reference)).body.transaction;
    sandbox.advance(26 * 3600);
    const change = await refund(second.reference, { amountMinor: 3_000 });
    expect(change.status).toBe(200);
    expect(change.body).toMatchObject({ status: 'succeeded', method: 'refund', amountMinor: 3_000 });
    const vuelto = c2pCalls(invoiceNumber(change.body.reference))[0]!.body.transaction_c2p as Record<string, unknown>;
    expect(vuelto).toMatchObject({ trx_type: 'vuelto', payment_method: 'p2p', amount: '30.00', payment_reference: '' });
    expect([open(vuelto.destination_mobile_number), open(vuelto.origin_mobile_number)]).toEqual(['584141234567', '584241112233']);
    const events = await sandbox.deps.outbox.listForMerchant(merchant.id, 'test');
    expect(events.filter((e) => e.envelope.type === 'charge.refunded')).toHaveLength(2);
  });

  it('leaves a vuelto whose answer never came pending, then settles it from the search of its day, never paid twice', async () => {
    const { keys } = await c2pMerchant();
    const paid = (await charge((await openSession(sandbox, keys.secretTest, { amountMinor: 6_000 })).reference)).body.transaction;
    sandbox.mercantil.injectFault('c2p', 'timeout');
    const late = await sandbox.request('POST', `/v1/transactions/${paid.reference}/refunds`, { key: keys.secretTest, body: { amountMinor: 1_000 }, headers: { 'idempotency-key': randomUUID() } });
    expect(late.status).toBe(202);
    expect(late.body).toMatchObject({ status: 'pending', method: 'refund' });

    sandbox.advance(61);
    const listed = await sandbox.request('GET', `/v1/transactions/${paid.reference}/refunds`, { key: keys.secretTest });
    expect(listed.body.data).toMatchObject([{ reference: late.body.reference, status: 'succeeded' }]);
    expect(c2pCalls(invoiceNumber(late.body.reference))).toHaveLength(1);
  });

  it("answers 422 payment_key_refused with the bank's Spanish reason when the bank will not send a key", async () => {
    const { keys } = await c2pMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const refused = await askKey(session.reference, { ...PAYER, phone: '04140000300' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'payment_key_refused', message: PAGO_MOVIL_REASONS.keyRefused, field: 'phone' });
  });

  it('bounds key requests: 3 per session, then 5 per phone per UTC day across sessions, 429 payment_key_limit with Retry-After', async () => {
    const { keys } = await c2pMerchant();
    const phone = `0416${String(Date.now()).slice(-7)}`;
    const first = await openSession(sandbox, keys.secretTest);
    const bySession = [];
    for (let i = 0; i < 4; i++) bySession.push(await askKey(first.reference, { ...PAYER, phone }));
    expect(bySession.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(bySession[3]!.body.code).toBe('payment_key_limit');
    expect(Number(bySession[3]!.headers.get('retry-after'))).toBeGreaterThan(0);

    const second = await openSession(sandbox, keys.secretTest);
    const byPhone = [await askKey(second.reference, { ...PAYER, phone }), await askKey(second.reference, { ...PAYER, phone }), await askKey(second.reference, { ...PAYER, phone })];
    expect(byPhone.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(byPhone[2]!.body.message).toContain('phone');
    // Another phone on that session still gets its key.
    expect((await askKey(second.reference)).status).toBe(200);
    const scps = sandbox.mercantil.calls('scp').filter((c) => open((c.body.transaction_scpInfo as Record<string, unknown>).destination_mobile_number) === `58${phone.slice(1)}`);
    expect(scps).toHaveLength(5);
  });

  it('holds both key bounds under races: of 10 requests at once on a session 3 are sent, of 8 at once for a phone 5', async () => {
    const { keys } = await c2pMerchant();
    const stamp = String(Date.now()).slice(-6);
    const session = await openSession(sandbox, keys.secretTest);
    const onSession = await Promise.all(Array.from({ length: 10 }, (_, i) => askKey(session.reference, { ...PAYER, phone: `0426${stamp}${i}` })));
    expect(onSession.filter((r) => r.status === 200)).toHaveLength(3);
    expect(onSession.filter((r) => r.status === 429 && r.body.code === 'payment_key_limit')).toHaveLength(7);

    const phone = `0412${stamp}9`;
    const sessions = await Promise.all(Array.from({ length: 8 }, () => openSession(sandbox, keys.secretTest)));
    const onPhone = await Promise.all(sessions.map((s) => askKey(s.reference, { ...PAYER, phone })));
    expect(onPhone.filter((r) => r.status === 200)).toHaveLength(5);
    expect(onPhone.filter((r) => r.status === 429)).toHaveLength(3);
    const sent = sandbox.mercantil.calls('scp').filter((c) => open((c.body.transaction_scpInfo as Record<string, unknown>).destination_mobile_number) === `58${phone.slice(1)}`);
    expect(sent).toHaveLength(5);
  });

  it('refuses bad input with 400 naming the field, before anything changes or reaches the bank', async () => {
    const { keys } = await c2pMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const callsBefore = sandbox.mercantil.calls().length;
    const cases: [Record<string, unknown>, string][] = [
      [{ phone: '0212-555-1234' }, 'phone'],
      [{ bankCode: '0999' }, 'bankCode'],
      [{ documentType: 'X' }, 'documentType'],
      [{ documentId: '12' }, 'documentId'],
      [{ key: 'abc' }, 'key'],
    ];
    for (const [bad, field] of cases) {
      const res = await charge(session.reference, bad);
      expect([res.status, res.body.code, res.body.field]).toEqual([400, 'parameter_invalid', field]);
    }
    const key = await askKey(session.reference, { ...PAYER, phone: '4141' });
    expect([key.status, key.body.field]).toEqual([400, 'phone']);
    expect(sandbox.mercantil.calls()).toHaveLength(callsBefore);
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'created', lastTransaction: null });
  });

  it('refuses C2P on a session that does not take it, and a key on a paid session (409 as the charge route answers)', async () => {
    const { keys } = await c2pMerchant();
    const cardOnly = await openSession(sandbox, keys.secretTest, { paymentMethods: ['card'] });
    const refused = await charge(cardOnly.reference);
    expect(refused.body).toMatchObject({ statusCode: 400, code: 'payment_method_unavailable' });

    const paid = await openSession(sandbox, keys.secretTest);
    expect((await charge(paid.reference)).body.session.status).toBe('completed');
    const late = await askKey(paid.reference);
    expect([late.status, late.body.code]).toEqual([409, 'session_completed']);
  });
});
