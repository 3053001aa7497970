import { describe, expect, it } from 'vitest';
import { BdvCredentialsSchema, credentialSetFor, SIMULATOR_CREDENTIAL_SET, SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/bdv/credentials.ts';
import { annulmentOutcome, bdvCentimos, BDV_REASONS, C2P_JUDGEMENTS, movementOutcome, paymentKeyOutcome, processOutcome } from '../../shared/connectors/bdv/outcomes.ts';
import { bdvGateways, BDV_QA_URL } from '../../shared/connectors/bdv/profile.ts';
import { annulmentBody, concept, getMovementBody, oneDecimal, paymentKeyBody, processBody, referenciaOf, twoDecimals } from '../../shared/connectors/bdv/requests.ts';
import { C2P_CODES } from '../../shared/connectors/bdv/wire.ts';
import type { PagoMovilPayer } from '../../shared/gateways/pago-movil-port.ts';

// The reference's samples (pago-movil.md §3): payer V15404774 on 04123963208, key 63216413, Bs. 2,0; a P2C of 120.00.
const payer: PagoMovilPayer = { bankCode: '0102', phone: '04123963208', document: { type: 'V', id: '15404774' } };
const reply = (status: number, body: Record<string, unknown>) => ({ status, body });
const SAMPLE_END_TO_END = '0102010240500008586180412396320820241108142701090037579602';

describe('BDV request bodies, field for field against the reference samples', () => {
  it('builds paymentkey as the sample: customerDocumentId and customerNumberInstrument, phone in local form', () => {
    expect(paymentKeyBody(payer)).toEqual({ customerDocumentId: 'V15404774', customerNumberInstrument: '04123963208' });
  });

  it('builds process as the sample: amount with one decimal, 4-character bank code, VES, CELE, the merchant phone', () => {
    const body = processBody({ transactionReference: 'txn_9ab', amountMinor: 200, payer, key: '63216413', affiliatedPhone: '04141234567' });
    expect(body).toEqual({
      customerDocumentId: 'V15404774',
      customerNumberInstrument: '04123963208',
      amount: '2.0',
      customerBankCode: '0102',
      concept: 'Pago txn_9ab',
      otp: '63216413',
      coinType: 'VES',
      operationType: 'CELE',
      commerceNumberInstrument: '04141234567',
    });
  });

  it('writes a C2P amount with one decimal, céntimos only when there are, and getMovement importe with two', () => {
    expect([oneDecimal(200), oneDecimal(250), oneDecimal(1_235), oneDecimal(12_000), oneDecimal(5)]).toEqual(['2.0', '2.5', '12.35', '120.0', '0.05']);
    expect([twoDecimals(12_000), twoDecimals(5)]).toEqual(['120.00', '0.05']);
    expect(() => oneDecimal(1.5)).toThrow(RangeError);
  });

  it('sends the concept without accents, cut at 100 characters', () => {
    expect(concept('Pagó café en señor Núñez')).toBe('Pago cafe en senor Nunez');
    expect(concept('x'.repeat(150))).toHaveLength(100);
  });

  it('annuls by endToEndId; the referencia goes along only for an interbank payer', () => {
    expect(annulmentBody(SAMPLE_END_TO_END, '0102')).toEqual({ endToEndId: SAMPLE_END_TO_END, referenceOrigin: '' });
    expect(annulmentBody(SAMPLE_END_TO_END, '0134')).toEqual({ endToEndId: SAMPLE_END_TO_END, referenceOrigin: '090037579602' });
    expect(referenciaOf(SAMPLE_END_TO_END)).toBe('090037579602');
  });

  it('builds getMovement as the sample; reqCed true only BDV to BDV with the cédula given', () => {
    const query = { reference: '12345678', payer: { bankCode: '0102' as const, phone: '04127141363', document: { type: 'V' as const, id: '27037606' } }, paidOn: '2023-02-12', amountMinor: 12_000 };
    expect(getMovementBody(query, '04127141363')).toEqual({
      cedulaPagador: 'V27037606',
      telefonoPagador: '04127141363',
      telefonoDestino: '04127141363',
      referencia: '12345678',
      fechaPago: '2023-02-12',
      importe: '120.00',
      bancoOrigen: '0102',
      reqCed: true,
    });
    expect(getMovementBody({ ...query, payer: { ...query.payer, bankCode: '0134' } }, '04127141363')).toMatchObject({ bancoOrigen: '0134', reqCed: false });
    const { document: _, ...withoutDocument } = query.payer;
    expect(getMovementBody({ ...query, payer: withoutDocument }, '04127141363')).toMatchObject({ cedulaPagador: '', reqCed: false });
  });
});

describe('BDV C2P answers: judged by code, never by the HTTP status', () => {
  it('reads the approved process sample: the endToEndId is the processor reference', () => {
    const approved = { code: '1000', message: 'Transaccion realizada', data: { date: '2024-11-08', endToEndId: SAMPLE_END_TO_END, cuenta: '', saldoDisponible: '', cuentaDivisa: '', saldoCuentaDivisa: '', referencia: '090037579602' }, status: 200 };
    expect(processOutcome(reply(200, approved))).toEqual({ kind: 'approved', processorReference: SAMPLE_END_TO_END });
  });

  it('never reads HTTP 200 as success: a 200 carrying 1034 is declined with its Spanish reason', () => {
    const outcome = processOutcome(reply(200, { code: '1034', message: 'saldo insuficiente', data: null, status: 200 }));
    expect(outcome).toEqual({ kind: 'declined', code: '1034', detail: 'Banco de Venezuela answered code 1034: saldo insuficiente', reason: 'Tu cuenta no tiene saldo suficiente. Prueba con otra cuenta u otro método de pago.' });
  });

  it('maps every code of the 19-code table as docs/bdv.md says', () => {
    const expected: Record<string, 'approved' | 'declined' | 'failed'> = {
      '1000': 'approved', '1002': 'failed', '1006': 'failed', '1013': 'failed', '1014': 'failed', '1015': 'declined', '1026': 'declined',
      '1034': 'declined', '1041': 'failed', '1050': 'failed', '1055': 'declined', '1056': 'declined', '1061': 'declined', '1062': 'declined',
      '1065': 'declined', '1080': 'declined', '1091': 'failed', '1092': 'declined', '1094': 'declined',
    };
    expect(Object.keys(C2P_CODES).sort()).toEqual(Object.keys(expected).sort());
    for (const [code, kind] of Object.entries(expected)) {
      const outcome = processOutcome(reply(200, { code, message: 'x', data: code === '1000' ? { endToEndId: 'e2e' } : null, status: 200 }));
      expect({ code, kind: outcome?.kind }).toEqual({ code, kind });
      if (kind !== 'approved') expect((outcome as { reason: string }).reason).toMatch(/\S/);
    }
  });

  it('tells the buyer what to do for the codes they can act on, the generic text otherwise', () => {
    const reason = (code: keyof typeof C2P_JUDGEMENTS) => C2P_JUDGEMENTS[code].reason;
    expect(reason('1055')).toMatch(/clave de pago no existe o ya venció/);
    expect(reason('1056')).toMatch(/teléfono no corresponde/);
    expect(reason('1061')).toMatch(/límite diario/);
    expect(reason('1062')).toBe(BDV_REASONS.declined);
    expect(reason('1002')).toBe(BDV_REASONS.failed);
  });

  it('fails a code outside the table, reads a numeric 1000 too, and answers null for what is no BDV answer', () => {
    expect(processOutcome(reply(200, { code: '1999', message: 'nuevo', status: 200 }))).toMatchObject({ kind: 'failed', code: '1999', reason: BDV_REASONS.failed });
    expect(processOutcome(reply(200, { code: 1000, data: { endToEndId: 'e2e' } }))).toEqual({ kind: 'approved', processorReference: 'e2e' });
    expect(processOutcome(reply(503, { message: 'Service Unavailable' }))).toBeNull();
    expect(processOutcome(reply(200, {}))).toBeNull();
    expect(processOutcome(reply(500, { code: '1000' }))).toBeNull();
  });

  it('reads the annulment sample (no id of its own) with the reversed debit id', () => {
    const reversed = { code: '1000', message: 'reverso realizada', data: { date: '2024-11-08', endToEndId: '', cuenta: '', saldoDisponible: '', cuentaDivisa: '', saldoCuentaDivisa: '', referencia: null }, status: 200 };
    expect(annulmentOutcome(reply(200, reversed), SAMPLE_END_TO_END)).toEqual({ kind: 'approved', processorReference: SAMPLE_END_TO_END });
  });

  it('reads the paymentkey sample as sent; a buyer code as refused with its reason; a bank code as failed', () => {
    expect(paymentKeyOutcome(reply(200, { code: '1000', message: 'Proceso finalizado', data: null, status: 200 }))).toEqual({ kind: 'sent' });
    expect(paymentKeyOutcome(reply(200, { code: '1056', message: 'x', status: 200 }))).toMatchObject({ kind: 'refused', code: '1056', reason: C2P_JUDGEMENTS['1056'].reason });
    expect(paymentKeyOutcome(reply(200, { code: '1041', message: 'x', status: 200 }))).toMatchObject({ kind: 'failed', code: '1041' });
    expect(paymentKeyOutcome(reply(502, {}))).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
  });
});

describe('BDV getMovement answers: 1000 found, 1010 told apart by message', () => {
  it('reads the success sample, a numeric code, with the amount recorded', () => {
    const found = { code: 1000, message: 'Monto: 120.00 - estatus: Transacción realizada', data: { status: '1000', amount: '120.00', reason: 'Transacción realizada', referencia: '12345678' }, status: 200 };
    expect(movementOutcome(reply(200, found), '12345678')).toEqual({ kind: 'found', amountMinor: 12_000, processorReference: '12345678' });
  });

  it('reads not found, already conciliated, a wrong key, and a wrong amount with the real one', () => {
    const answer = (message: string) => movementOutcome(reply(200, { code: 1010, message, data: null, status: 200 }), '12345678');
    expect(answer('Registro solicitado no existe')).toEqual({ kind: 'not_found' });
    expect(answer('El movimiento ya fue conciliado anteriormente')).toEqual({ kind: 'already_claimed' });
    expect(answer('Cliente no afiliado al producto')).toMatchObject({ kind: 'failed', code: '1010' });
    expect(answer('El monto no coincide con el movimiento. Monto: 150.00')).toEqual({ kind: 'found', amountMinor: 15_000, processorReference: '12345678' });
    expect(answer('Monto del movimiento 1.500,50')).toEqual({ kind: 'found', amountMinor: 150_050, processorReference: '12345678' });
    expect(answer('Error interno del servicio')).toMatchObject({ kind: 'failed', code: '1010' });
  });

  it('fails what is no getMovement answer; never reads a 200 without code 1000 as found', () => {
    expect(movementOutcome(reply(503, {}), '1')).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
    expect(movementOutcome(reply(200, { status: 200, data: { amount: '120.00' } }), '1')).toMatchObject({ kind: 'failed' });
    expect(movementOutcome(reply(200, { code: 1002, message: 'x' }), '1')).toMatchObject({ kind: 'failed', code: '1002' });
  });

  it('reads amounts to céntimos exactly', () => {
    expect([bdvCentimos('120.00'), bdvCentimos('120'), bdvCentimos('0.07'), bdvCentimos('1.500,00'), bdvCentimos('2.0')]).toEqual([12_000, 12_000, 7, 150_000, 200]);
    expect(bdvCentimos('1.005')).toBeNull();
    expect(bdvCentimos(undefined)).toBeNull();
  });
});

describe('BDV credentials and profile', () => {
  const first = (value: unknown) => {
    const parsed = BdvCredentialsSchema.safeParse(value);
    return parsed.success ? null : parsed.error.issues[0]!.path.join('.');
  };

  it('takes a live set, a test set, or both; names the first missing or invalid field', () => {
    expect(first({ c2pApiKey: 'k', affiliatedPhone: '04141234567' })).toBeNull();
    expect(first(SIMULATOR_TEST_CREDENTIALS)).toBeNull();
    expect(first({ conciliationApiKey: 'k', affiliatedPhone: '04141234567', test: SIMULATOR_CREDENTIAL_SET })).toBeNull();
    expect(first({})).toBe('affiliatedPhone');
    expect(first({ affiliatedPhone: '04141234567' })).toBe('c2pApiKey');
    expect(first({ c2pApiKey: 'k', affiliatedPhone: '584141234567' })).toBe('affiliatedPhone');
    expect(first({ test: { affiliatedPhone: '04141234567' } })).toBe('test.c2pApiKey');
    expect(first({ ...SIMULATOR_TEST_CREDENTIALS, apiKey: 'x' })).toBe('');
  });

  it('gives a test account only the test set and a live one only the top level', () => {
    const both = JSON.stringify({ c2pApiKey: 'live', affiliatedPhone: '04141234567', test: SIMULATOR_CREDENTIAL_SET });
    expect(credentialSetFor({ environment: 'test', credentials: both })).toEqual(SIMULATOR_CREDENTIAL_SET);
    expect(credentialSetFor({ environment: 'live', credentials: both })).toEqual({ c2pApiKey: 'live', affiliatedPhone: '04141234567' });
    expect(credentialSetFor({ environment: 'live', credentials: JSON.stringify(SIMULATOR_TEST_CREDENTIALS) })).toMatchObject({ problem: expect.stringMatching(/live/) });
    expect(credentialSetFor({ environment: 'test', credentials: '{' })).toMatchObject({ problem: expect.stringMatching(/not JSON/) });
  });

  it('declares VES, GATEWAY_BDV_URL, and the QA host as the test default', () => {
    expect(bdvGateways.bdv).toMatchObject({
      currency: 'VES',
      endpoint: { variable: 'GATEWAY_BDV_URL', contextKey: 'bdvUrl' },
      testEndpoint: { variable: 'GATEWAY_BDV_TEST_URL', contextKey: 'bdvTestUrl', published: 'https://bdvconciliacionqa.banvenez.com:444' },
    });
    expect(BDV_QA_URL).toBe('https://bdvconciliacionqa.banvenez.com:444');
  });
});
