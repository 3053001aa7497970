import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../shared/clock.ts';
import { SIMULATOR_CREDENTIAL_SET } from '../../shared/connectors/mercantil/credentials.ts';
import { c2pOutcome, incomingPaymentOutcome, scpOutcome } from '../../shared/connectors/mercantil/pago-movil-outcomes.ts';
import { c2pChangeBody, c2pPurchaseBody, c2pVoidBody, mobilePaymentSearchBody, scpBody, type PagoMovilContext } from '../../shared/connectors/mercantil/pago-movil-requests.ts';
import { PAGO_MOVIL_PATHS } from '../../shared/connectors/mercantil/pago-movil-wire.ts';
import { bankRequest } from '../../shared/gateways/bank-http.ts';
import type { PagoMovilPayer } from '../../shared/gateways/pago-movil-port.ts';
import { startMercantilSimulator, type MercantilSimulator } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { PAGO_MOVIL_TEST_DATA, PAGO_MOVIL_TEST_PAYERS, SIMULATOR_PM_CODES } from '../../infra/sandbox/mercantil/pago-movil-desk.ts';

const clock = new OffsetClock();
const context: PagoMovilContext = { credentials: SIMULATOR_CREDENTIAL_SET, merchantPhone: '04241234567', client: { ipAddress: '190.202.1.7', userAgent: 'Chrome' } };
const sandboxPayer: PagoMovilPayer = { bankCode: '0105', phone: '04141234567', document: { type: 'V', id: '9999999' } };
const national = (international: string) => `0${international.slice(2)}`;
let simulator: MercantilSimulator;
let n = 0;
const ref = (prefix: string) => `${prefix}_${++n}_${Date.now()}`;

const post = (path: string, body: unknown) =>
  bankRequest({ connector: 'mercantil', method: 'POST', url: `${simulator.baseUrl}${path}`, body, headers: { 'X-IBM-Client-Id': SIMULATOR_CREDENTIAL_SET.clientId }, timeoutMs: 10_000 });
const today = () => new Date(clock.now() - 4 * 3_600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  simulator = await startMercantilSimulator({ clock });
});
afterAll(() => simulator.close());

describe('Mercantil simulator: SCP (send the buyer a key)', () => {
  it("sends a key to the bank's sandbox payer, and refuses with the bank's 0300 for the refusing test payer", async () => {
    expect(scpOutcome(await post(PAGO_MOVIL_PATHS.scp, scpBody(context, sandboxPayer)))).toEqual({ kind: 'sent' });
    const refusing = { ...sandboxPayer, phone: national(PAGO_MOVIL_TEST_PAYERS.keyRefused) };
    expect(scpOutcome(await post(PAGO_MOVIL_PATHS.scp, scpBody(context, refusing)))).toMatchObject({ kind: 'refused', code: '0300' });
    expect(simulator.calls('scp')).toHaveLength(2);
  });

  it('refuses fields that are not encrypted with the merchant secret', async () => {
    const body = scpBody(context, sandboxPayer);
    body.transaction_scpInfo.destination_mobile_number = '584141234567';
    expect(scpOutcome(await post(PAGO_MOVIL_PATHS.scp, body))).toMatchObject({ kind: 'refused', code: SIMULATOR_PM_CODES.FORMAT });
  });
});

describe('Mercantil simulator: C2P compra, anulacion, vuelto', () => {
  it("approves a compra with the sandbox key once per invoice; a repeat of the invoice is refused, never charged twice", async () => {
    const transactionReference = ref('txn');
    const body = c2pPurchaseBody(context, { transactionReference, amountMinor: 500, payer: sandboxPayer, key: PAGO_MOVIL_TEST_DATA.key });
    const approved = c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, body));
    expect(approved).toMatchObject({ kind: 'approved', processorReference: expect.stringMatching(/^\d{10}$/) });
    expect(c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, body))).toMatchObject({ kind: 'declined', code: SIMULATOR_PM_CODES.DUPLICATE_INVOICE });
    expect(simulator.pagoMovil.c2pPayments().filter((p) => p.invoice === body.transaction_c2p.invoice_number)).toHaveLength(1);
  });

  it('declines a wrong key, an unknown bank and the insufficient-funds payer with their own codes', async () => {
    const wrongKey = c2pPurchaseBody(context, { transactionReference: ref('txn'), amountMinor: 500, payer: sandboxPayer, key: '12345678' });
    expect(c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, wrongKey))).toMatchObject({ kind: 'declined', code: SIMULATOR_PM_CODES.WRONG_KEY });
    const poor = { ...sandboxPayer, phone: national(PAGO_MOVIL_TEST_PAYERS.insufficientFunds) };
    const broke = c2pPurchaseBody(context, { transactionReference: ref('txn'), amountMinor: 500, payer: poor, key: PAGO_MOVIL_TEST_DATA.key });
    expect(c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, broke))).toMatchObject({ kind: 'declined', code: SIMULATOR_PM_CODES.INSUFFICIENT_FUNDS });
    const unknownBank = c2pPurchaseBody(context, { transactionReference: ref('txn'), amountMinor: 500, payer: sandboxPayer, key: PAGO_MOVIL_TEST_DATA.key });
    unknownBank.transaction_c2p.destination_bank_id = 999;
    expect(c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, unknownBank))).toMatchObject({ kind: 'declined', code: SIMULATOR_PM_CODES.BANK_UNKNOWN });
  });

  it('voids a compra of the same day once, whole; not a second time, and not the next day', async () => {
    const purchase = async () => {
      const outcome = c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, c2pPurchaseBody(context, { transactionReference: ref('txn'), amountMinor: 1_000, payer: sandboxPayer, key: PAGO_MOVIL_TEST_DATA.key })));
      return (outcome as { processorReference: string }).processorReference;
    };
    const paymentReference = await purchase();
    const voidOf = (reference: string) => c2pVoidBody(context, { refundReference: ref('rf'), amountMinor: 1_000, payer: sandboxPayer, paymentReference: reference });
    expect(c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, voidOf(paymentReference)))).toMatchObject({ kind: 'approved' });
    expect(c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, voidOf(paymentReference)))).toMatchObject({ kind: 'declined', code: SIMULATOR_PM_CODES.NOT_VOIDABLE });
    const yesterdays = await purchase();
    clock.advance(24 * 3_600_000);
    expect(c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, voidOf(yesterdays)))).toMatchObject({ kind: 'declined', code: SIMULATOR_PM_CODES.NOT_VOIDABLE });
  });

  it('pays a vuelto out to the buyer phone without a key', async () => {
    const outcome = c2pOutcome(await post(PAGO_MOVIL_PATHS.c2p, c2pChangeBody(context, { refundReference: ref('rf'), amountMinor: 250, payer: sandboxPayer })));
    expect(outcome).toMatchObject({ kind: 'approved' });
    expect(simulator.pagoMovil.c2pPayments().at(-1)).toMatchObject({ type: 'vuelto', amountMinor: 250, payerPhone: PAGO_MOVIL_TEST_DATA.phone });
  });
});

describe('Mercantil simulator: mobile-payment search (P2C received)', () => {
  it('finds a payment the ledger received by reference, phone and day, with the amount received', async () => {
    const received = simulator.pagoMovil.receivePayment({ payerPhone: PAGO_MOVIL_TEST_DATA.phone, amountMinor: 2_050 });
    const query = { reference: received.reference, payer: { bankCode: '0105' as const, phone: sandboxPayer.phone }, paidOn: today(), amountMinor: 2_000 };
    expect(incomingPaymentOutcome(await post(PAGO_MOVIL_PATHS.search, mobilePaymentSearchBody(context, query)), received.reference)).toMatchObject({
      kind: 'found',
      amountMinor: 2_050,
      processorReference: String(Number(received.reference)),
    });
    const elsewhere = { ...query, payer: { ...query.payer, phone: '04240000001' } };
    expect(incomingPaymentOutcome(await post(PAGO_MOVIL_PATHS.search, mobilePaymentSearchBody(context, elsewhere)), received.reference)).toEqual({ kind: 'not_found' });
    const anotherDay = { ...query, paidOn: '2020-01-01' };
    expect(incomingPaymentOutcome(await post(PAGO_MOVIL_PATHS.search, mobilePaymentSearchBody(context, anotherDay)), received.reference)).toEqual({ kind: 'not_found' });
  });
});
