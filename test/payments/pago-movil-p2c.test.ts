import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { caracasDay } from '../../shared/domain/pago-movil.ts';
import { openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const PAYER_PHONE = '584141234567';
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
  const pay = (amountMinor: number, ref: string) => sandbox.mercantil.pagoMovil.receivePayment({ payerPhone: PAYER_PHONE, amountMinor, reference: ref, date: today() });

  it('approves a payment found with the exact amount', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    pay(5_250, ref);
    const res = await submit(session.reference, ref);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transaction: { status: 'approved', paymentMethod: { type: 'pago_movil_p2c', pagoMovil: { reference: ref, phone: '*******4567' } } }, session: { status: 'completed' } });
  });

  it('declines another amount, recorded for the merchant', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 5_250 });
    const ref = reference();
    pay(5_000, ref);
    const res = await submit(session.reference, ref);
    expect(res.body.transaction.status).toBe('declined');
    const detail = await sandbox.request('GET', `/v1/transactions/${res.body.transaction.reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ errorCode: 'pago_movil_amount_differs', paymentMethod: { pagoMovil: { amountReceivedMinor: 5_000 } } });
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
    pay(5_250, ref);
    sandbox.advance(16);
    const read = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(read.body.status).toBe('completed');
  });

  it('refuses bad input with 400 naming the field', async () => {
    const { keys } = await p2cMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    for (const [bad, field] of [[{ reference: '12a' }, 'reference'], [{ paidOn: '2025-02-30' }, 'paidOn'], [{ phone: '0212' }, 'phone']] as const) {
      const res = await submit(session.reference, reference(), bad);
      expect([res.status, res.body.field]).toEqual([400, field]);
    }
  });
});
