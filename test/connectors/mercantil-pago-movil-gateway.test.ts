import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../shared/clock.ts';
import { SIMULATOR_CREDENTIAL_SET } from '../../shared/connectors/mercantil/credentials.ts';
import { mercantilPagoMovil, type MercantilPost } from '../../shared/connectors/mercantil/pago-movil-gateway.ts';
import type { PagoMovilContext } from '../../shared/connectors/mercantil/pago-movil-requests.ts';
import { bankRequest } from '../../shared/gateways/bank-http.ts';
import type { PagoMovilPayer } from '../../shared/gateways/pago-movil-port.ts';
import { startMercantilSimulator, type MercantilSimulator } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { PAGO_MOVIL_TEST_DATA, SIMULATOR_PM_CODES } from '../../infra/sandbox/mercantil/pago-movil-desk.ts';

const clock = new OffsetClock();
const context: PagoMovilContext = { credentials: SIMULATOR_CREDENTIAL_SET, merchantPhone: '04241234567', client: { ipAddress: '190.202.1.7', userAgent: 'Chrome' } };
const payer: PagoMovilPayer = { bankCode: '0105', phone: '04141234567', document: { type: 'V', id: '9999999' } };
let bank: MercantilSimulator;
let n = 0;
const ref = (prefix: string) => `${prefix}_${++n}_${Date.now()}`;

/** A generous deadline for answers that come; a short one where the simulator holds its answer past any deadline. */
const postWithin =
  (timeoutMs: number): MercantilPost =>
  (path, body, retries = 0) =>
    bankRequest({ connector: 'mercantil', method: 'POST', url: `${bank.baseUrl}${path}`, body, headers: { 'X-IBM-Client-Id': SIMULATOR_CREDENTIAL_SET.clientId }, timeoutMs, retries });
const pagoMovil = () => mercantilPagoMovil(postWithin(20_000), context);

beforeAll(async () => {
  bank = await startMercantilSimulator({ clock });
});
afterAll(() => bank.close());

const charge = (amountMinor = 1_250) => ({ transactionReference: ref('txn'), amountMinor, payer, chargedAt: new Date(clock.now()) });

describe('Mercantil pago móvil gateway against its simulator', () => {
  it('charges a C2P compra once with the key, and its status read finds the approval by our invoice', async () => {
    const c = charge();
    const outcome = await pagoMovil().purchase(c, PAGO_MOVIL_TEST_DATA.key);
    expect(outcome).toMatchObject({ kind: 'approved' });
    expect(await pagoMovil().purchaseStatus(c)).toEqual(outcome);
    expect(bank.calls('c2p').filter((call) => call.invoice !== null)).toHaveLength(1);
  });

  it('declines a wrong key, and reads not_found for a compra the bank never took', async () => {
    const c = charge();
    expect(await pagoMovil().purchase(c, '99999999')).toMatchObject({ kind: 'declined', code: SIMULATOR_PM_CODES.WRONG_KEY });
    expect(await pagoMovil().purchaseStatus(c)).toEqual({ kind: 'not_found' });
  });

  it('leaves a timed-out compra unknown, never sends it again, and settles it by the status read', async () => {
    const c = charge();
    bank.injectFault('c2p', 'timeout');
    expect(await mercantilPagoMovil(postWithin(1_000), context).purchase(c, PAGO_MOVIL_TEST_DATA.key)).toMatchObject({ kind: 'unknown' });
    expect(await pagoMovil().purchaseStatus(c)).toMatchObject({ kind: 'approved' });
    expect(bank.calls('c2p').filter((call) => call.body.transaction_c2p && (call.body.transaction_c2p as { invoice_number: string }).invoice_number === bank.pagoMovil.c2pPayments().at(-1)!.invoice)).toHaveLength(1);
  });

  it('settles a 503 and a dropped connection from the record at once', async () => {
    bank.injectFault('c2p', 'server_error');
    expect(await pagoMovil().purchase(charge(), PAGO_MOVIL_TEST_DATA.key)).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
    bank.injectFault('c2p', 'drop');
    expect(await pagoMovil().purchase(charge(), PAGO_MOVIL_TEST_DATA.key)).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
  });

  it('voids a compra the same day, and pays a partial vuelto back to the phone', async () => {
    const c = charge(3_000);
    const approved = (await pagoMovil().purchase(c, PAGO_MOVIL_TEST_DATA.key)) as { processorReference: string };
    const refund = { refundReference: ref('rf'), amountMinor: 3_000, payer, sentAt: new Date(clock.now()) };
    expect(await pagoMovil().voidPurchase(refund, approved.processorReference)).toMatchObject({ kind: 'approved' });
    expect(await pagoMovil().refundStatus(refund)).toMatchObject({ kind: 'approved' });
    const change = { refundReference: ref('rf'), amountMinor: 1_000, payer, sentAt: new Date(clock.now()) };
    expect(await pagoMovil().payChange(change)).toMatchObject({ kind: 'approved' });
  });

  it('sends a key, and finds a received P2C by its reference', async () => {
    expect(await pagoMovil().sendKey(payer)).toEqual({ kind: 'sent' });
    const received = bank.pagoMovil.receivePayment({ payerPhone: PAGO_MOVIL_TEST_DATA.phone, amountMinor: 7_500 });
    const paidOn = new Date(clock.now() - 4 * 3_600_000).toISOString().slice(0, 10);
    expect(await pagoMovil().findIncoming({ reference: received.reference, payer, paidOn, amountMinor: 7_500 })).toMatchObject({ kind: 'found', amountMinor: 7_500 });
    expect(await pagoMovil().findIncoming({ reference: '12345', payer, paidOn, amountMinor: 7_500 })).toEqual({ kind: 'not_found' });
  });
});
