import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../shared/clock.ts';
import { bdvPagoMovil, BDV_CODES, type BdvPost } from '../../shared/connectors/bdv/bdv-gateway.ts';
import { SIMULATOR_CREDENTIAL_SET, type BdvCredentialSet } from '../../shared/connectors/bdv/credentials.ts';
import { getMovementBody, processBody } from '../../shared/connectors/bdv/requests.ts';
import type { ConnectorId } from '../../shared/connectors/profiles.ts';
import { bankRequest } from '../../shared/gateways/bank-http.ts';
import type { PagoMovilPayer } from '../../shared/gateways/pago-movil-port.ts';
import { GatewayUnavailableError } from '../../shared/gateways/payment-gateway.ts';
import { startNetworkServer } from '../../infra/sandbox/network-server.ts';
import { BDV_TEST_DATA, phoneForCode, startBdvSimulator, type BdvSimulator } from '../../infra/sandbox/bdv/bdv-simulator.ts';

const clock = new OffsetClock();
const payer: PagoMovilPayer = { bankCode: '0102', phone: BDV_TEST_DATA.phone, document: { type: 'V', id: BDV_TEST_DATA.document.slice(1) } };
let bank: BdvSimulator;
let n = 0;
let amountSeed = 50_000;
/** A new amount per debit: the simulator refuses the same payer and amount within 30 s (1094). */
const debit = (over: Partial<PagoMovilPayer> = {}) => ({ transactionReference: `txn_gw_${++n}`, amountMinor: (amountSeed += 100), payer: { ...payer, ...over } });

/** A generous deadline for answers that come; a short one where the simulator holds its answer past any deadline. */
const postTo =
  (base: () => string, timeoutMs: number): BdvPost =>
  (path, body, headers) =>
    // 'bdv' is not a registered connector id yet (its registry line comes with issue 34); the id only annotates traces.
    bankRequest({ connector: 'bdv' as ConnectorId, method: 'POST', url: `${base()}${path}`, body, headers, timeoutMs });
const gateway = (timeoutMs = 20_000, credentials: BdvCredentialSet = SIMULATOR_CREDENTIAL_SET) => bdvPagoMovil(postTo(() => bank.url, timeoutMs), credentials);

beforeAll(async () => {
  bank = await startBdvSimulator({ clock });
});
afterAll(() => bank.close());

describe('BDV gateway against its simulator: C2P', () => {
  it('debits with the key once; the endToEndId it answers annuls the debit', async () => {
    const sent = debit();
    const outcome = await gateway().purchase(sent, BDV_TEST_DATA.otp);
    expect(outcome).toEqual({ kind: 'approved', processorReference: bank.debits().at(-1)!.endToEndId });
    expect(bank.calls('process').at(-1)).toEqual({
      operation: 'process',
      keyFamily: 'c2p',
      body: processBody({ ...sent, key: BDV_TEST_DATA.otp, affiliatedPhone: SIMULATOR_CREDENTIAL_SET.affiliatedPhone }),
    });
    expect(bank.calls('process').at(-1)!.body.concept).toBe(`Pago ${sent.transactionReference}`);
    const reversed = await gateway().annul((outcome as { processorReference: string }).processorReference, payer);
    expect(reversed).toMatchObject({ kind: 'approved' });
    expect(bank.debits().at(-1)!.annulled).toBe(true);
  });

  it('declines with the reason the buyer can act on: insufficient funds, wrong key, phone of another holder, daily limit', async () => {
    expect(await gateway().purchase(debit({ phone: phoneForCode('1034') }), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'declined', code: '1034', reason: expect.stringMatching(/saldo suficiente/) });
    expect(await gateway().purchase(debit(), '00000000')).toMatchObject({ kind: 'declined', code: '1055', reason: expect.stringMatching(/clave de pago/) });
    expect(await gateway().purchase(debit({ phone: phoneForCode('1056') }), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'declined', code: '1056' });
    expect(await gateway().purchase(debit({ phone: phoneForCode('1061') }), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'declined', code: '1061' });
  });

  it('never reads a 200 that carries an error code as approved', async () => {
    const before = bank.debits().length;
    bank.injectFault('process', 'error_code');
    expect(await gateway().purchase(debit(), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'failed', code: '1002' });
    expect(bank.debits()).toHaveLength(before);
  });

  it('leaves a timed-out debit unknown, never sends it again, and says no status read exists', async () => {
    const calls = bank.calls('process').length;
    bank.injectFault('process', 'timeout');
    expect(await gateway(1_000).purchase(debit(), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'unknown', detail: expect.stringMatching(/no status read/) });
    expect(bank.calls('process')).toHaveLength(calls + 1);
    // The bank did debit: only the merchant's statement can tell, so the status read refuses to guess.
    expect(bank.debits().at(-1)!.concept).toBe(`Pago txn_gw_${n}`);
    await expect(gateway().purchaseStatus()).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it('leaves a 503 and a dropped connection unknown, each sent once', async () => {
    const calls = bank.calls('process').length;
    bank.injectFault('process', 'server_error');
    expect(await gateway().purchase(debit(), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'unknown' });
    bank.injectFault('process', 'drop');
    expect(await gateway().purchase(debit(), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'unknown' });
    expect(bank.calls('process')).toHaveLength(calls + 2);
  });

  it('fails a debit that never left (connection refused) and one refused with a 4xx before the bank judged it', async () => {
    const closed = await startNetworkServer(async () => ({ status: 200, body: {} }));
    await closed.close();
    expect(await bdvPagoMovil(postTo(() => closed.url, 20_000), SIMULATOR_CREDENTIAL_SET).purchase(debit(), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
    const wrongKey = { ...SIMULATOR_CREDENTIAL_SET, c2pApiKey: 'not-the-key' };
    expect(await gateway(20_000, wrongKey).purchase(debit(), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'failed', code: 'processor_unavailable', detail: expect.stringMatching(/HTTP 401/) });
  });

  it('sends the key request; refuses it for a payer the bank does not know; fails without a C2P key', async () => {
    expect(await gateway().sendKey(payer)).toEqual({ kind: 'sent' });
    expect(await gateway().sendKey({ ...payer, phone: phoneForCode('1080') })).toMatchObject({ kind: 'refused', code: '1080', reason: expect.stringMatching(/cédula/) });
    const { c2pApiKey: _, ...conciliationOnly } = SIMULATOR_CREDENTIAL_SET;
    const calls = bank.calls().length;
    expect(await gateway(20_000, conciliationOnly).sendKey(payer)).toMatchObject({ kind: 'failed', code: BDV_CODES.NO_API_KEY });
    expect(await gateway(20_000, conciliationOnly).purchase(debit(), BDV_TEST_DATA.otp)).toMatchObject({ kind: 'failed', code: BDV_CODES.NO_API_KEY });
    expect(bank.calls()).toHaveLength(calls);
  });
});

describe('BDV gateway against its simulator: P2C verification', () => {
  const paidOn = () => new Date(clock.now() - 4 * 3_600_000).toISOString().slice(0, 10);
  const query = (reference: string, amountMinor: number) => ({ reference, payer: { bankCode: '0134' as const, phone: '04127141363' }, paidOn: paidOn(), amountMinor });

  it('finds a received payment, then reads it as already claimed; a reference nobody sent is not found', async () => {
    const received = bank.receivePayment({ payerPhone: '04127141363', payerBank: '0134', amountMinor: 7_500 });
    expect(await gateway().findIncoming(query(received.reference, 7_500))).toEqual({ kind: 'found', amountMinor: 7_500, processorReference: received.reference });
    clock.advance(60_000);
    expect(await gateway().findIncoming(query(received.reference, 7_500))).toEqual({ kind: 'already_claimed' });
    expect(await gateway().findIncoming(query('4040404040', 7_500))).toEqual({ kind: 'not_found' });
    expect(bank.calls('getMovement').at(-1)).toEqual({ operation: 'getMovement', keyFamily: 'conciliation', body: getMovementBody(query('4040404040', 7_500), SIMULATOR_CREDENTIAL_SET.affiliatedPhone) });
  });

  it('asks once on a 503 and on a 200 carrying an unknown 1010, and fails both', async () => {
    const calls = bank.calls('getMovement').length;
    bank.injectFault('getMovement', 'server_error');
    expect(await gateway().findIncoming(query('1', 100))).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
    bank.injectFault('getMovement', 'error_code');
    expect(await gateway().findIncoming(query('2', 100))).toMatchObject({ kind: 'failed', code: '1010' });
    expect(bank.calls('getMovement')).toHaveLength(calls + 2);
  });

  it('fails without a conciliation key, asking nothing', async () => {
    const { conciliationApiKey: _, ...c2pOnly } = SIMULATOR_CREDENTIAL_SET;
    const calls = bank.calls().length;
    expect(await gateway(20_000, c2pOnly).findIncoming(query('3', 100))).toMatchObject({ kind: 'failed', code: BDV_CODES.NO_API_KEY });
    expect(bank.calls()).toHaveLength(calls);
  });
});
