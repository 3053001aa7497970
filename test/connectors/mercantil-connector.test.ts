import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../shared/clock.ts';
import { SIMULATOR_CREDENTIAL_SET, SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { decryptField, encryptField } from '../../shared/connectors/mercantil/field-cipher.ts';
import { mercantilGateway } from '../../shared/connectors/mercantil/mercantil-gateway.ts';
import { REASONS } from '../../shared/connectors/mercantil/outcomes.ts';
import { bolivares, invoiceNumber, paymentMethod, processingDate } from '../../shared/connectors/mercantil/requests.ts';
import type { PaymentData } from '../../shared/domain/payment-data.ts';
import { GatewayUnavailableError, type BankAccount, type ChargeRequest } from '../../shared/gateways/payment-gateway.ts';
import { MERCANTIL_TEST_DATA, SIMULATOR_CODES, startMercantilSimulator, type MercantilSimulator } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';

const SECRET = SIMULATOR_CREDENTIAL_SET.secretKey;
const account: BankAccount = { environment: 'test', credentials: JSON.stringify(SIMULATOR_TEST_CREDENTIALS) };
const client = { ipAddress: '190.202.1.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' };
let counter = 0;

const debit: PaymentData = { card: { number: MERCANTIL_TEST_DATA.debit.cardNumber, expMonth: 11, expYear: 2040, cvv: '111', holderName: 'Ana Pérez' }, document: { type: 'V', id: '999999' } };
const credit: PaymentData = { card: { number: MERCANTIL_TEST_DATA.credit.cardNumber, expMonth: 1, expYear: 2025, cvv: '123', holderName: 'Ana Pérez' }, document: { type: 'V', id: '18366876' } };

const chargeOf = (payment: PaymentData, amountMinor = 1050): ChargeRequest => {
  const reference = `txn_contract${++counter}${Date.now()}`;
  return { transactionReference: reference, sessionReference: `cs_${reference}`, amountMinor, currency: 'VES', payment, client };
};

describe('Mercantil field encryption', () => {
  it("matches the reference's test vectors computed with the bank's Node algorithm (secret changeme)", () => {
    expect(encryptField('111', 'changeme')).toBe('eJ70UUsmLeY+kTB/JCigEw==');
    expect(encryptField('11111111', 'changeme')).toBe('laohKzAbIFH6sfxoucehAQ==');
    expect(encryptField('clavetelefonica', 'changeme')).toBe('IhKhU81waTLWlJZUzOmcXQ==');
    expect(decryptField('laohKzAbIFH6sfxoucehAQ==', 'changeme')).toBe('11111111');
  });

  it('refuses a ciphertext of another secret', () => {
    expect(() => decryptField(encryptField('111', 'another secret'), 'changeme')).toThrow();
  });
});

describe('Mercantil request values', () => {
  it('converts minor units to bolívares exactly, as strings', () => {
    expect(bolivares(1050)).toBe('10.50');
    expect(bolivares(5)).toBe('0.05');
    expect(bolivares(500)).toBe('5.00');
    expect(bolivares(123_456_789_012_345)).toBe('1234567890123.45');
    expect(() => bolivares(10.5)).toThrow(RangeError);
  });

  it('derives one 12-digit invoice number per transaction reference', () => {
    expect(invoiceNumber('txn_a')).toMatch(/^\d{12}$/);
    expect(invoiceNumber('txn_a')).toBe(invoiceNumber('txn_a'));
    expect(invoiceNumber('txn_a')).not.toBe(invoiceNumber('txn_b'));
  });

  it("tells the bank's test debit card (Maestro) from its credit card, and dates in Caracas time", () => {
    expect(paymentMethod(MERCANTIL_TEST_DATA.debit.cardNumber)).toBe('tdd');
    expect(paymentMethod(MERCANTIL_TEST_DATA.credit.cardNumber)).toBe('tdc');
    expect(processingDate(new Date('2024-07-09T03:30:00Z'))).toBe('2024/07/08');
  });
});

describe('Mercantil connector against its simulator', () => {
  let bank: MercantilSimulator;
  let gateway: ReturnType<typeof mercantilGateway>;

  beforeAll(async () => {
    bank = await startMercantilSimulator({ clock: systemClock });
    // Short deadline so the held answer crosses it quickly; the simulator holds 60 s.
    gateway = mercantilGateway({ urls: { live: 'http://127.0.0.1:9/unused', test: bank.baseUrl }, timeoutMs: 1_500 });
  });
  afterAll(() => bank.close());

  it('pays a credit card with one pay, every field as the bank sample sends it', async () => {
    const request = chargeOf(credit);
    // The bank recorded it as a credit card's charge (payment_method tdc): the receipt may say so.
    expect(await gateway.charge(request, account)).toEqual({ kind: 'approved', processorReference: expect.stringMatching(/^\d{13}$/), funding: 'credit' });
    const [call] = bank.calls('pay').filter((c) => c.invoice === invoiceNumber(request.transactionReference));
    expect(call!.clientId).toBe(SIMULATOR_CREDENTIAL_SET.clientId);
    expect(call!.body).toEqual({
      merchant_identify: { integratorId: 31, merchantId: 123456, terminalId: 'abcde' },
      client_identify: { ipaddress: client.ipAddress, browser_agent: client.userAgent },
      transaction: {
        trx_type: 'compra',
        payment_method: 'tdc',
        card_number: MERCANTIL_TEST_DATA.credit.cardNumber,
        customer_id: 'V18366876',
        invoice_number: invoiceNumber(request.transactionReference),
        expiration_date: '2025/01',
        cvv: encryptField('123', SECRET),
        currency: 'ves',
        amount: '10.50',
      },
    });
  });

  it("declines with the bank's code and the connector's Spanish text", async () => {
    const outcome = await gateway.charge(chargeOf({ ...credit, card: { ...credit.card, cvv: '999' } }), account);
    expect(outcome).toMatchObject({ kind: 'declined', code: SIMULATOR_CODES.WRONG_CVV, reason: REASONS.declined });
    const unknownCard = chargeOf({ ...credit, card: { ...credit.card, number: '4111111111111111' } });
    expect(await gateway.charge(unknownCard, account)).toMatchObject({ kind: 'declined', code: SIMULATOR_CODES.CARD_REFUSED });
    // The simulator keeps no number but its published test cards, even in its record of requests.
    const recorded = bank.calls('pay').find((c) => c.invoice === invoiceNumber(unknownCard.transactionReference))!;
    expect((recorded.body.transaction as Record<string, unknown>).card_number).toBe('************1111');
  });

  it('asks getauth for a debit card, then pays with card, CVV, account and the encrypted code', async () => {
    const request = chargeOf(debit, 500);
    // What the bank asks for, decrypted from getauth's answer: the clave telefónica, 8 digits.
    expect(await gateway.charge(request, account)).toEqual({
      kind: 'otp_required',
      factor: { kind: 'phone_key', bankName: 'Mercantil', label: 'Clave telefónica', length: 8, inputType: 'numeric' },
    });
    const invoice = invoiceNumber(request.transactionReference);
    expect(bank.calls('pay').filter((c) => c.invoice === invoice)).toHaveLength(0);
    expect(bank.calls('getauth').at(-1)!.body).toEqual({
      merchant_identify: { integratorId: 31, merchantId: 123456, terminalId: 'abcde' },
      client_identify: { ipaddress: client.ipAddress, browser_agent: client.userAgent },
      transaction_authInfo: { trx_type: 'solaut', payment_method: 'tdd', customer_id: 'V999999', card_number: MERCANTIL_TEST_DATA.debit.cardNumber },
    });
    expect(await gateway.verifyOtp(request, '11111111', account)).toBe('valid');
    expect(await gateway.verifyOtp(request, '11a1', account)).toBe('invalid');
    const outcome = await gateway.authorize(request, account, { code: '11111111', charge: request, accountType: 'CC' });
    expect(outcome).toMatchObject({ kind: 'approved', funding: 'debit' });
    expect(bank.calls('pay').find((c) => c.invoice === invoice)!.body.transaction).toEqual({
      trx_type: 'compra',
      payment_method: 'tdd',
      card_number: MERCANTIL_TEST_DATA.debit.cardNumber,
      customer_id: 'V999999',
      account_type: 'CC',
      invoice_number: invoice,
      twofactor_auth: 'laohKzAbIFH6sfxoucehAQ==',
      expiration_date: '2040/11',
      cvv: 'eJ70UUsmLeY+kTB/JCigEw==',
      currency: 'ves',
      amount: '5.00',
    });
  });

  it("declines a wrong code or account type with the bank's code, marked as the factor refused (not the card); the invoice stays payable", async () => {
    const request = chargeOf(debit);
    await gateway.charge(request, account);
    const refused = { kind: 'declined', code: SIMULATOR_CODES.WRONG_OTP, factorRefused: true };
    expect(await gateway.authorize(request, account, { code: '22222222', charge: request, accountType: 'CC' })).toMatchObject(refused);
    expect(await gateway.authorize(request, account, { code: MERCANTIL_TEST_DATA.debit.otp, charge: request, accountType: 'CA' })).toMatchObject(refused);
    expect(await gateway.authorize(request, account, { code: MERCANTIL_TEST_DATA.debit.otp, charge: request, accountType: 'CC' })).toMatchObject({ kind: 'approved' });
  });

  it('keeps a wrong CVV a decline of the card, not a refused factor', async () => {
    const request = chargeOf(debit);
    await gateway.charge(request, account);
    const wrongCvv = { ...debit, card: { ...debit.card, cvv: '999' } };
    const outcome = await gateway.authorize(request, account, { code: MERCANTIL_TEST_DATA.debit.otp, charge: { ...request, payment: wrongCvv }, accountType: 'CC' });
    expect(outcome).toMatchObject({ kind: 'declined', code: SIMULATOR_CODES.WRONG_CVV });
    expect(outcome).not.toHaveProperty('factorRefused');
  });

  it('leaves a timed-out pay unknown, then reads the approval by search', async () => {
    const request = chargeOf(credit);
    bank.injectFault('pay', 'timeout');
    expect(await gateway.charge(request, account)).toMatchObject({ kind: 'unknown' });
    const status = await gateway.chargeStatus({ ...request, chargedAt: new Date().toISOString() }, account);
    expect(status).toMatchObject({ kind: 'approved', processorReference: expect.stringMatching(/^\d{13}$/) });
    expect(bank.calls('search').at(-1)!.body.search_by).toEqual({
      search_criteria: 'unique',
      procesing_date: processingDate(new Date()),
      invoice_number: invoiceNumber(request.transactionReference),
      payment_reference: '',
    });
  });

  it('settles a 5xx or a dropped connection from the record at once: none, so failed without charging', async () => {
    bank.injectFault('pay', 'server_error');
    expect(await gateway.charge(chargeOf(credit), account)).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
    bank.injectFault('pay', 'drop');
    expect(await gateway.charge(chargeOf(credit), account)).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
  });

  it('answers a repeated invoice with the first approval, never a second charge', async () => {
    const request = chargeOf(credit);
    const first = await gateway.charge(request, account);
    const again = await gateway.charge(request, account);
    expect(first.kind).toBe('approved');
    expect(again).toEqual(first);
    expect(bank.calls('pay').filter((c) => c.invoice === invoiceNumber(request.transactionReference))).toHaveLength(2);
  });

  it('fails on an IBM gateway refusal or a merchant the bank does not know', async () => {
    const wrongClient = { ...account, credentials: JSON.stringify({ test: { ...SIMULATOR_CREDENTIAL_SET, clientId: 'other' } }) };
    expect(await gateway.charge(chargeOf(credit), wrongClient)).toMatchObject({ kind: 'failed', code: 'mercantil_gateway_error', reason: REASONS.failed });
    const wrongMerchant = { ...account, credentials: JSON.stringify({ test: { ...SIMULATOR_CREDENTIAL_SET, merchantId: 999 } }) };
    expect(await gateway.charge(chargeOf(credit), wrongMerchant)).toMatchObject({ kind: 'failed', code: SIMULATOR_CODES.MERCHANT_UNKNOWN });
  });

  it('reads not_found for a charge the bank never saw, and throws when search cannot answer', async () => {
    const request = chargeOf(credit);
    expect(await gateway.chargeStatus(request, account)).toEqual({ kind: 'not_found' });
    bank.injectFault('search', 'server_error', 3);
    await expect(gateway.chargeStatus(request, account)).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it("sends a test payment only the test slot's set and a live one only the top-level set, and neither when its slot is empty", async () => {
    // Both environments at the simulator, so every call either environment makes is seen with its client id.
    const both = mercantilGateway({ urls: { live: bank.baseUrl, test: bank.baseUrl }, timeoutMs: 5_000 });
    const production = { ...SIMULATOR_CREDENTIAL_SET, clientId: 'production-client', secretKey: 'production-aes-key' };
    const sentWith = async (environment: 'test' | 'live', loaded: object) => {
      const request = chargeOf(credit);
      const outcome = await both.charge(request, { environment, credentials: JSON.stringify(loaded) });
      return { outcome, clientIds: bank.calls().filter((c) => c.invoice === invoiceNumber(request.transactionReference)).map((c) => c.clientId) };
    };

    const withBoth = { ...production, test: SIMULATOR_CREDENTIAL_SET };
    expect(await sentWith('test', withBoth)).toMatchObject({ outcome: { kind: 'approved' }, clientIds: ['changeme'] });
    expect((await sentWith('live', withBoth)).clientIds).toEqual(['production-client']);

    const productionOnly = await sentWith('test', production);
    expect(productionOnly.outcome).toMatchObject({ kind: 'failed', code: 'mercantil_credentials_invalid', detail: expect.stringContaining('test slot') });
    expect(productionOnly.clientIds).toEqual([]);
    const sandboxOnly = await sentWith('live', { test: SIMULATOR_CREDENTIAL_SET });
    expect(sandboxOnly.outcome).toMatchObject({ kind: 'failed', code: 'mercantil_credentials_invalid' });
    expect(sandboxOnly.clientIds).toEqual([]);
  });
});
