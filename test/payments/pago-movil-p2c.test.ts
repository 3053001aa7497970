import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_CREDENTIAL_SET, SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { decryptField } from '../../shared/connectors/mercantil/field-cipher.ts';
import { caracasDay } from '../../shared/domain/pago-movil.ts';
import { eventsOf, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const PAYER_PHONE = '584141234567';
/** The background runner on a busy machine: generous, polled. */
const PATIENTLY = { timeout: 60_000, interval: 100 };
const reference = () => String(Date.now()).slice(-8) + String(Math.floor(Math.random() * 1000)).padStart(3, '0');

describe('Pago móvil P2C by reference through the API on Banco Mercantil (its simulator)', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 1_500 });
  });
  afterAll(() => sandbox.stop());

  const p2cMerchant = async () => {
    const pagoMovil = { gateways: { pago_movil_p2c: 'mercantil' as const }, payee: { phone: '04241112233', rif: 'J-07013380-5' } };
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true }, pagoMovil } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    return { merchant, keys };
  };
  const today = () => caracasDay(new Date(sandbox.clock.now()));
  const submit = (sessionReference: string, ref: string, extra: Record<string, unknown> = {}) =>
    sandbox.request('POST', '/v1/checkout/pago-movil/reference', {
      body: { sessionReference, reference: ref, bankCode: '0105', phone: '0414-123.45.67', paidOn: today(), ...extra },
      headers: { 'idempotency-key': randomUUID() },
    });
  const searchesFor = (ref: string) => sandbox.mercantil.calls('mobile-search').filter((c) => (c.body.search_by as Record<string, unknown>).payment_reference === ref).length;
  const pay = (amountMinor: number, ref: string) => sandbox.mercantil.pagoMovil.receivePayment({ payerPhone: PAYER_PHONE, amountMinor, reference: ref, date: today() });

  it('approves a payment found with the exact amount', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    pay(5_250, ref);
    const res = await submit(session.reference, ref);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transaction: { status: 'approved', paymentMethod: { type: 'pago_movil_p2c', pagoMovil: { reference: ref, phone: '*******4567' } } }, session: { status: 'completed' } });
    // Not refunded through the bank (no debit to void, no cédula for a vuelto): recorded as external instead.
    const refund = (body: Record<string, unknown>) => sandbox.request('POST', `/v1/transactions/${res.body.transaction.reference}/refunds`, { key: keys.secretTest, body, headers: { 'idempotency-key': randomUUID() } });
    const calls = sandbox.mercantil.calls().length;
    expect(await refund({})).toMatchObject({ status: 409, body: { code: 'refund_unsupported' } });
    expect(sandbox.mercantil.calls()).toHaveLength(calls);
    expect(await refund({ method: 'external', external: { channel: 'pago_movil' } })).toMatchObject({ status: 200, body: { status: 'succeeded', method: 'external' } });
    // What the bank answered for the payment: its reference and authorization code.
    expect(res.body.transaction).toMatchObject({ processorReference: ref, authorizationCode: ref.slice(-6) });
    // Contract: the search as the bank received it (reference §: mobile-payment/search), phones encrypted.
    const open = (encrypted: unknown) => decryptField(String(encrypted), SIMULATOR_CREDENTIAL_SET.secretKey);
    const searchBy = sandbox.mercantil.calls('mobile-search').at(-1)!.body.search_by as Record<string, unknown>;
    expect({ ...searchBy, destination_mobile_number: open(searchBy.destination_mobile_number), origin_mobile_number: open(searchBy.origin_mobile_number) }).toEqual({
      amount: '52.50',
      currency: 'ves',
      destination_mobile_number: PAYER_PHONE,
      origin_mobile_number: '584241112233',
      payment_reference: ref,
      trx_date: today(),
    });
  });

  it('declines another amount, recorded for the merchant', async () => {
    const { merchant, keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    pay(5_000, ref);
    const res = await submit(session.reference, ref);
    expect(res.body.transaction.status).toBe('declined');
    const detail = await sandbox.request('GET', `/v1/transactions/${res.body.transaction.reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ errorCode: 'pago_movil_amount_differs', paymentMethod: { pagoMovil: { amountReceivedMinor: 5_000 } } });
    // Not approved: the session stays open, and charge.declined tells the merchant the amount received.
    expect((await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest })).body.status).toBe('failed');
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.declined']);
    expect(events[0]!.data).toMatchObject({ errorCode: 'pago_movil_amount_differs', paymentMethod: { type: 'pago_movil_p2c', pagoMovil: { amountReceivedMinor: 5_000, phone: '*******4567' } } });
  });

  it('declines a reference another session holds without asking the bank', async () => {
    const { keys } = await p2cMerchant();
    const ref = reference();
    pay(5_250, ref);
    const first = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    expect((await submit(first.reference, ref)).body.transaction.status).toBe('approved');
    const searches = sandbox.mercantil.calls('mobile-search').length;
    const second = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const res = await submit(second.reference, ref);
    expect(res.body.transaction.status).toBe('declined');
    expect(sandbox.mercantil.calls('mobile-search')).toHaveLength(searches);
    const detail = await sandbox.request('GET', `/v1/transactions/${res.body.transaction.reference}`, { key: keys.secretTest });
    expect(detail.body.errorCode).toBe('pago_movil_reference_used');
  });

  it('keeps a reference not found yet pending, then finds it on a later re-check', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    const res = await submit(session.reference, ref);
    expect(res.status).toBe(202);
    expect(res.body.nextAction).toMatchObject({ type: 'pago_movil_verifying' });
    // The page's read before the re-check is due asks nothing and says when the service looks again.
    const waiting = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(waiting.body).toMatchObject({ status: 'processing', nextAction: { type: 'pago_movil_verifying', checkAgainAt: res.body.nextAction.checkAgainAt } });
    expect(searchesFor(ref)).toBe(1);
    pay(5_250, ref);
    sandbox.advance(16);
    // The page polls; its read or the background runner's message, whichever takes the search first, finds it.
    await vi.waitFor(async () => {
      const read = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
      expect(read.body).toMatchObject({ status: 'completed', nextAction: null });
    }, PATIENTLY);
    expect(searchesFor(ref)).toBe(2);
  }, 120_000);

  const merchantRead = (keys: { secretTest: string }, sessionReference: string) => sandbox.request('GET', `/v1/sessions/${sessionReference}`, { key: keys.secretTest });

  it('searches again by itself, with nobody reading the page: not found, then found on a later re-check by the background runner', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    const res = await submit(session.reference, ref);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ transaction: { status: 'pending' }, session: { status: 'processing' } });
    expect(Date.parse(res.body.nextAction.checkAgainAt) - sandbox.clock.now()).toBeLessThanOrEqual(15_000);
    pay(5_250, ref);
    // Not due yet: the runner leaves it.
    await sandbox.background.drain();
    expect(searchesFor(ref)).toBe(1);

    sandbox.advance(16);
    await vi.waitFor(async () => {
      await sandbox.background.drain();
      expect((await merchantRead(keys, session.reference)).body).toMatchObject({ status: 'completed', lastTransaction: { status: 'approved' } });
    }, PATIENTLY);
    expect(searchesFor(ref)).toBe(2);
    const txn = await sandbox.deps.transactions.get(res.body.transaction.reference);
    expect(txn!.trace.filter((e) => e.event === 'pago_movil_searched')).toHaveLength(2);
  }, 120_000);

  it('declines pago_movil_not_found after the last re-check and releases the reference in the same write', async () => {
    const { merchant, keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    const res = await submit(session.reference, ref);
    const claim = { merchantId: merchant.id, mode: 'test' as const, bankCode: '0105', reference: ref };
    expect(await sandbox.deps.pagoMovilClaims.get(claim)).toMatchObject({ sessionReference: session.reference, transactionReference: res.body.transaction.reference });

    await vi.waitFor(async () => {
      sandbox.advance(301);
      await sandbox.background.drain();
      expect((await sandbox.deps.transactions.get(res.body.transaction.reference))!.status).toBe('declined');
    }, PATIENTLY);
    const txn = await sandbox.deps.transactions.get(res.body.transaction.reference);
    expect(txn).toMatchObject({ errorCode: 'pago_movil_not_found' });
    // One search by the request and one per re-check (15 s, 30 s, 1, 2, 3 and 5 minutes), never more.
    expect(searchesFor(ref)).toBe(7);
    expect(await sandbox.deps.pagoMovilClaims.get(claim)).toBeNull();

    // Released: the buyer who truly made that payment can pay with it.
    pay(5_250, ref);
    const other = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    expect((await submit(other.reference, ref)).body.transaction.status).toBe('approved');
  }, 120_000);

  it('has exactly one winner when two sessions race over one reference', async () => {
    const { keys } = await p2cMerchant();
    const ref = reference();
    pay(5_250, ref);
    const sessions = await Promise.all(Array.from({ length: 4 }, () => openSession(sandbox, keys.secretTest, { amountMinor: 5_250 })));
    const answers = await Promise.all(sessions.map((s) => submit(s.reference, ref)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.transaction.status === 'approved')).toHaveLength(1);
    expect(answers.filter((a) => a.body.transaction.status === 'declined')).toHaveLength(3);
    expect(searchesFor(ref)).toBe(1);
  });

  it("takes the merchant's submission with its secret key and answers the merchant's view", async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    pay(4_000, ref);
    const res = await sandbox.request('POST', `/v1/sessions/${session.reference}/pago-movil-reference`, {
      key: keys.secretTest,
      body: { reference: ref, bankCode: '0105', phone: '04141234567', paidOn: today() },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      transaction: { status: 'declined', errorCode: 'pago_movil_amount_differs', paymentMethod: { type: 'pago_movil_p2c', pagoMovil: { reference: ref, amountReceivedMinor: 4_000 } } },
      session: { reference: session.reference, status: 'failed' },
      nextAction: null,
    });
    const unauthenticated = await sandbox.request('POST', `/v1/sessions/${session.reference}/pago-movil-reference`, { body: { reference: ref, bankCode: '0105', phone: '04141234567', paidOn: today() }, headers: { 'idempotency-key': randomUUID() } });
    expect(unauthenticated.status).toBe(401);
  });

  it('bounds a session to 3 references (409 pago_movil_reference_limit); a re-check of one is not counted', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250, maxFailures: 10 });
    const refs = [reference(), reference(), reference(), reference()];
    for (const ref of refs) pay(1_000, ref);
    for (const ref of refs.slice(0, 3)) expect((await submit(session.reference, ref)).body.transaction.status).toBe('declined');
    const fourth = await submit(session.reference, refs[3]!);
    expect([fourth.status, fourth.body.code]).toEqual([409, 'pago_movil_reference_limit']);
    // The re-check of a reference found with another amount reads that amount again, without asking the bank.
    const searches = sandbox.mercantil.calls('mobile-search').length;
    const again = await submit(session.reference, `0${refs[0]}`);
    expect(again.status).toBe(200);
    expect(await sandbox.deps.transactions.get(again.body.transaction.reference)).toMatchObject({ errorCode: 'pago_movil_amount_differs', pagoMovil: { amountReceivedMinor: 1_000 } });
    expect(sandbox.mercantil.calls('mobile-search')).toHaveLength(searches);
  });

  it('refuses bad input and a session that does not take P2C with 400 naming the field; nothing changes', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const searches = sandbox.mercantil.calls('mobile-search').length;
    const cases: [Record<string, unknown>, string][] = [
      [{ reference: '12a' }, 'reference'],
      [{ reference: '123' }, 'reference'],
      [{ paidOn: '2025-02-30' }, 'paidOn'],
      [{ paidOn: '2999-01-01' }, 'paidOn'],
      [{ phone: '0212-555-1234' }, 'phone'],
      [{ bankCode: '0999' }, 'bankCode'],
    ];
    for (const [bad, field] of cases) {
      const res = await submit(session.reference, reference(), bad);
      expect([res.status, res.body.field]).toEqual([400, field]);
    }
    const cardOnly = await openSession(sandbox, keys.secretTest, { paymentMethods: ['card'] });
    const unavailable = await submit(cardOnly.reference, reference());
    expect([unavailable.status, unavailable.body.code]).toEqual([400, 'payment_method_unavailable']);
    expect(sandbox.mercantil.calls('mobile-search')).toHaveLength(searches);
    expect((await merchantRead(keys, session.reference)).body).toMatchObject({ status: 'created', lastTransaction: null });
  });
});
