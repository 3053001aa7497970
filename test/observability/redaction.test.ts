import { describe, expect, it } from 'vitest';
import { maskSensitiveText, REDACTED, redactingReplacer } from '../../shared/observability/redaction.ts';

const redact = (value: unknown) => JSON.parse(JSON.stringify(value, redactingReplacer)) as unknown;

describe('maskSensitiveText', () => {
  it('masks Luhn-valid card numbers to their last four digits, grouped or not', () => {
    expect(maskSensitiveText('paid with 4111111111111111.')).toBe('paid with ************1111.');
    expect(maskSensitiveText('card 4111 1111 1111 1111 ok')).toBe('card ************1111 ok');
    expect(maskSensitiveText('amex 3782-822463-10005')).toBe('amex ***********0005');
  });

  it('masks card-length digit runs that fail Luhn: a mistyped number, the bank\'s own test debit card', () => {
    expect(maskSensitiveText('typo 4111111111111112')).toBe('typo ************1112');
    expect(maskSensitiveText('{"card_number":"501878201234567890"}')).toBe('{"card_number":"**************7890"}');
    expect(maskSensitiveText('grouped 5018 7820 1234 5678 90')).toBe('grouped **************7890');
  });

  it('leaves digit runs that are not card-like: too short, part of a longer run, inside a UUID', () => {
    expect(maskSensitiveText('amount 411111111111')).toBe('amount 411111111111');
    const requestId = '46904062-5995-4143-8aa1-bb4a615dfc49';
    expect(maskSensitiveText(`request ${requestId}`)).toBe(`request ${requestId}`);
    const sequenceNumber = '4111111111111111000000';
    expect(maskSensitiveText(`seq ${sequenceNumber}`)).toBe(`seq ${sequenceNumber}`);
  });

  it('replaces webhook secrets, API keys and credentials after an auth scheme', () => {
    expect(maskSensitiveText('secret whsec_AbC123+/=')).toBe(`secret whsec_${REDACTED}`);
    expect(maskSensitiveText('key sk_live_abc123 and rk_test_XYZ9')).toBe(`key sk_live_${REDACTED} and rk_test_${REDACTED}`);
    expect(maskSensitiveText('Authorization: Bearer eyJhbGciOi.abc.def')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(maskSensitiveText('basic dXNlcjpwYXNz')).toBe(`basic ${REDACTED}`);
  });

  it('keeps publishable keys and ordinary references', () => {
    expect(maskSensitiveText('pk_test_abc cs_123 txn_456')).toBe('pk_test_abc cs_123 txn_456');
  });
});

describe('redactingReplacer', () => {
  it('redacts security codes, authorization headers and secrets by field name, at any depth', () => {
    expect(redact({ card: { number: '4111111111111111', cvv: '123', expMonth: 12 }, headers: { Authorization: 'whatever' }, otp: 123456 })).toEqual({
      card: { number: '************1111', cvv: REDACTED, expMonth: 12 },
      headers: { Authorization: REDACTED },
      otp: REDACTED,
    });
    expect(redact({ credentials: { client_secret: 's3cr3t', clientId: 'abc' } })).toEqual({ credentials: { client_secret: REDACTED, clientId: REDACTED } });
  });

  it("redacts the connectors' credentials and the buyer's bank code (issue 33, finding 4)", () => {
    const mercantil = { clientId: 'f1e2d3c4', secretKey: 'A11103402525120190822HB01', integratorId: 31, merchantId: 200284, terminalId: 'abcde' };
    expect(redact({ credentials: mercantil, headers: { 'X-IBM-Client-Id': 'f1e2d3c4' } })).toEqual({
      credentials: { ...mercantil, clientId: REDACTED, secretKey: REDACTED },
      headers: { 'X-IBM-Client-Id': REDACTED },
    });
    expect(redact({ stripe: { secretKey: 'opaque', testSecretKey: 'opaque' }, oauthClientId: 'id' })).toEqual({ stripe: { secretKey: REDACTED, testSecretKey: REDACTED }, oauthClientId: REDACTED });
    expect(redact({ transaction: { twofactor_auth: 'laohKzAbIFH6sfxoucehAQ==' } })).toEqual({ transaction: { twofactor_auth: REDACTED } });
    expect(redact({ body: { code: '11111111' } })).toEqual({ body: { code: REDACTED } });
    expect(redact({ code: 11111111 })).toEqual({ code: REDACTED });
    expect(redact({ code: 'clavetelefonica' })).toEqual({ code: REDACTED });
  });

  it("redacts a pago móvil payment key, the payer's cédula and Mercantil's encrypted payer fields; masks phones to their last four", () => {
    expect(redact({ body: { sessionReference: 'cs_1', bankCode: '0105', phone: '0414-123.45.67', documentType: 'V', documentId: '9999999', key: '00001111' } })).toEqual({
      body: { sessionReference: 'cs_1', bankCode: '0105', phone: '*******4567', documentType: 'V', documentId: REDACTED, key: REDACTED },
    });
    expect(redact({ transaction_c2p: { destination_id: 'x1==', destination_mobile_number: 'x2==', origin_mobile_number: 'x3==', invoice_number: '123' } })).toEqual({
      transaction_c2p: { destination_id: REDACTED, destination_mobile_number: REDACTED, origin_mobile_number: REDACTED, invoice_number: '123' },
    });
    expect(redact({ pagoMovil: { payer: { phone: '04141234567' } } })).toEqual({ pagoMovil: { payer: { phone: '*******4567' } } });
    expect(maskSensitiveText('debit of 04141234567 (+58 424-111.22.33, 584161234567) failed')).toBe('debit of *******4567 (*******2233, *******4567) failed');
    // Keys that are not payment keys (DynamoDB's, an idempotency key) stay, and so do 11-digit references.
    expect(redact({ key: 'order-42', Key: { pk: 'SESSION#cs_1' }, reference: '84840003380' })).toEqual({ key: 'order-42', Key: { pk: 'SESSION#cs_1' }, reference: '84840003380' });
  });

  it('keeps error codes readable: ours in snake_case, Node\'s in upper case', () => {
    const error = { error: { code: 'card_declined', cause: { code: 'ECONNRESET' } }, other: { code: 'ERR_SOCKET_CLOSED' } };
    expect(redact(error)).toEqual(error);
  });

  it('masks card numbers sent as numbers, but not epoch milliseconds', () => {
    expect(redact({ pan: 4111111111111111 })).toEqual({ pan: '************1111' });
    expect(redact({ expiresAt: 1763705703000 })).toEqual({ expiresAt: 1763705703000 });
  });
});
