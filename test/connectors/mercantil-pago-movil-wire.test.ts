import { describe, expect, it } from 'vitest';
import { SIMULATOR_CREDENTIAL_SET } from '../../shared/connectors/mercantil/credentials.ts';
import { decryptField, encryptField } from '../../shared/connectors/mercantil/field-cipher.ts';
import { c2pOutcome, centimos, incomingPaymentOutcome, PAGO_MOVIL_REASONS, scpOutcome } from '../../shared/connectors/mercantil/pago-movil-outcomes.ts';
import { c2pChangeBody, c2pPurchaseBody, c2pVoidBody, mobilePaymentSearchBody, scpBody, type PagoMovilContext } from '../../shared/connectors/mercantil/pago-movil-requests.ts';
import { invoiceNumber } from '../../shared/connectors/mercantil/requests.ts';
import type { PagoMovilPayer } from '../../shared/gateways/pago-movil-port.ts';

// The reference's sandbox data (pago-movil.md §1.5): secret changeme, buyer V9999999 on 584141234567 at bank 105, key 00001111.
const credentials = SIMULATOR_CREDENTIAL_SET;
const context: PagoMovilContext = { credentials, merchantPhone: '04241234567', client: { ipAddress: '127.0.0.1', userAgent: 'Chrome 18.1.3' } };
const payer: PagoMovilPayer = { bankCode: '0105', phone: '04141234567', document: { type: 'V', id: '9999999' } };
const merchantIdentify = { integratorId: 31, merchantId: 123456, terminalId: 'abcde' };
const reply = (status: number, body: Record<string, unknown>) => ({ status, body });

describe("Mercantil pago móvil: the reference's encryption vectors (secret changeme)", () => {
  it('encrypts cédula, phone and key exactly as the bank does', () => {
    expect(encryptField('V9999999', 'changeme')).toBe('1151vX3IIOWr9PXgr/V9Rg==');
    expect(encryptField('V999999', 'changeme')).toBe('0NOcjFt1R8OnEatYI7VWWg==');
    expect(encryptField('584141234567', 'changeme')).toBe('AYZ7EYV5gAokyLzBez9Bug==');
    expect(encryptField('00001111', 'changeme')).toBe('tTg7FEkRCQ9rKMteBHSxlQ==');
  });
});

describe('Mercantil pago móvil request bodies, field for field (reference §1.1 to §1.3)', () => {
  it('builds a C2P compra: buyer in the destination fields, merchant in origin, key encrypted, amount plain', () => {
    const body = c2pPurchaseBody(context, { transactionReference: 'txn_c2p_1', amountMinor: 500, payer, key: '00001111' });
    expect(body).toEqual({
      merchant_identify: merchantIdentify,
      client_identify: { ipaddress: '127.0.0.1', browser_agent: 'Chrome 18.1.3' },
      transaction_c2p: {
        amount: '5.00',
        currency: 'ves',
        destination_bank_id: 105,
        destination_id: '1151vX3IIOWr9PXgr/V9Rg==',
        destination_mobile_number: 'AYZ7EYV5gAokyLzBez9Bug==',
        origin_mobile_number: encryptField('584241234567', 'changeme'),
        payment_reference: '',
        trx_type: 'compra',
        payment_method: 'c2p',
        invoice_number: invoiceNumber('txn_c2p_1'),
        twofactor_auth: 'tTg7FEkRCQ9rKMteBHSxlQ==',
      },
    });
    expect(decryptField(body.transaction_c2p.origin_mobile_number, 'changeme')).toBe('584241234567');
  });

  it('builds an anulacion with the original reference and no key, and a vuelto as p2p with no key', () => {
    const voided = c2pVoidBody(context, { refundReference: 'rf_1', amountMinor: 500, payer, paymentReference: '6460003485' }).transaction_c2p;
    expect(voided).toMatchObject({ trx_type: 'anulacion', payment_method: 'c2p', payment_reference: '6460003485', twofactor_auth: '', invoice_number: invoiceNumber('rf_1'), amount: '5.00' });
    const change = c2pChangeBody(context, { refundReference: 'rf_2', amountMinor: 250, payer }).transaction_c2p;
    expect(change).toMatchObject({ trx_type: 'vuelto', payment_method: 'p2p', payment_reference: '', twofactor_auth: '', amount: '2.50', destination_bank_id: 105 });
    expect(decryptField(change.destination_mobile_number, 'changeme')).toBe('584141234567');
  });

  it('builds an SCP key request with both fields encrypted', () => {
    expect(scpBody(context, payer)).toEqual({
      merchant_identify: merchantIdentify,
      client_identify: { ipaddress: '127.0.0.1', browser_agent: 'Chrome 18.1.3' },
      transaction_scpInfo: { destination_id: '1151vX3IIOWr9PXgr/V9Rg==', destination_mobile_number: 'AYZ7EYV5gAokyLzBez9Bug==' },
    });
  });

  it('builds a mobile-payment search with both phones encrypted, the cédula only when given', () => {
    const query = { reference: '84840003380', payer: { bankCode: '0105' as const, phone: '04141234567' }, paidOn: '2025-03-17', amountMinor: 525_000 };
    expect(mobilePaymentSearchBody(context, query).search_by).toEqual({
      amount: '5250.00',
      currency: 'ves',
      destination_mobile_number: 'AYZ7EYV5gAokyLzBez9Bug==',
      origin_mobile_number: encryptField('584241234567', 'changeme'),
      payment_reference: '84840003380',
      trx_date: '2025-03-17',
    });
    expect(mobilePaymentSearchBody(context, { ...query, payer }).search_by.destination_id).toBe('1151vX3IIOWr9PXgr/V9Rg==');
  });
});

describe("Mercantil pago móvil answers (the bank's sandbox screenshots)", () => {
  it('reads the approved compra of 2024-07-08, whose payment_reference is a JSON number', () => {
    const approved = {
      merchant_identify: merchantIdentify,
      transaction_c2p_response: {
        processing_date: '2024-07-08 11:04:42 VET', trx_status: 'approved', trx_internal_status: '0000', trx_type: 'compra', authorization_code: '123456',
        payment_method: 'c2p', payment_reference: 6460003485, invoice_number: '681861', amount: 5, service_fee: 0, currency: 'ves',
      },
    };
    expect(c2pOutcome(reply(200, approved))).toEqual({ kind: 'approved', processorReference: '6460003485' });
  });

  it('declines an error_list with the bank code and the pago móvil text; a 401 is a failure of ours', () => {
    const refused = reply(400, { error_list: [{ error_code: '0364', description: 'x' }] });
    expect(c2pOutcome(refused)).toMatchObject({ kind: 'declined', code: '0364', reason: PAGO_MOVIL_REASONS.declined });
    expect(c2pOutcome(reply(401, { httpCode: '401', httpMessage: 'Unauthorized' }))).toMatchObject({ kind: 'failed' });
  });

  it('reads an SCP success and its 0300 refusal of 2024-05-06', () => {
    expect(scpOutcome(reply(200, { merchant_identify: merchantIdentify, transactionScpInfoResponse: { procesing_date: '2024-07-08 11:18:10 VET', trx_status: 'La solicitud de la clave temporal de', trx_internal_status: '0000' } }))).toEqual({ kind: 'sent' });
    const error = { processing_date: '2024-05-06 01:13:18 VET', merchant_identify: merchantIdentify, error_list: [{ error_code: '0300', description: 'Error solicitando clave temporal de pago c2p' }] };
    expect(scpOutcome(reply(400, error))).toMatchObject({ kind: 'refused', code: '0300', reason: PAGO_MOVIL_REASONS.keyRefused });
  });

  it('finds the P2C of 2025-03-17 by its reference, with the amount received, and reads 0330 as not found yet', () => {
    const found = {
      merchant_identify: merchantIdentify,
      transaction_list: [{ trx_date: '2025-03-17', trx_type: 'compra', authorization_code: '003380', payment_reference: 84840003380, invoice_number: '', payment_method: 'p2c', currency: 'ves', amount: 5250, destination_bank_id: 105 }],
    };
    expect(incomingPaymentOutcome(reply(200, found), '84840003380')).toEqual({ kind: 'found', amountMinor: 525_000, processorReference: '84840003380', authorizationCode: '003380' });
    expect(incomingPaymentOutcome(reply(200, found), '84840003381')).toEqual({ kind: 'not_found' });
    const none = { processing_date: '2024-05-06 01:13:18 VET', merchant_identify: merchantIdentify, error_list: [{ error_code: '0330', description: 'No hay transacciones que coincidan con los campos de busqueda' }] };
    expect(incomingPaymentOutcome(reply(400, none), '84840003380')).toEqual({ kind: 'not_found' });
  });

  it('reads amounts to céntimos exactly, never through a float product', () => {
    expect(centimos(5250)).toBe(525_000);
    expect(centimos('5.00')).toBe(500);
    expect(centimos(52.5)).toBe(5250);
    expect(centimos('0.07')).toBe(7);
    expect(centimos('1.005')).toBeNull();
    expect(centimos(undefined)).toBeNull();
  });
});
