import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectNoStackTrace, expectSecurityHeaders } from '../support/assertions.ts';
import { putStoredCard } from '../support/direct-writes.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const REFERENCE = /^cs_[0-9A-Za-z]{24}$/;
const VALID = { amountMinor: 1050, currency: 'VES' } as const;

describe('POST /v1/sessions', () => {
  let sandbox: TestSandbox;
  let merchant: Merchant;
  let keys: MerchantKeys;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ merchant, keys } = await sandbox.newMerchant());
  });
  afterAll(() => sandbox.stop());

  const create = (body: unknown, key = keys.secretTest) => sandbox.request('POST', '/v1/sessions', { key, body });

  describe('a valid request', () => {
    it('answers 201 with the full session object: status created, minor units, checkoutUrl on the checkout base, defaults', async () => {
      const before = sandbox.clock.now();
      const res = await create(VALID);
      const after = sandbox.clock.now();

      expect(res.status).toBe(201);
      expectSecurityHeaders(res);
      expectNoStackTrace(res);
      const reference = res.body.reference as string;
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        reference: expect.stringMatching(REFERENCE),
        mode: 'test',
        status: 'created',
        closedReason: null,
        amountMinor: 1050,
        currency: 'VES',
        description: null,
        customerRef: null,
        returnUrl: null,
        checkoutUrl: `${sandbox.deps.config.checkoutBaseUrl}/checkout?session=${reference}`,
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        maxFailures: null,
        attemptsRemaining: null,
        attemptCount: 0,
        prefill: null,
        metadata: {},
        paymentMethods: ['card'],
        lastTransaction: null,
      });
      expect(new URL(res.body.checkoutUrl).pathname).toBe('/checkout');
      expect(new URL(res.body.checkoutUrl).searchParams.get('session')).toBe(reference);
      const createdAt = Date.parse(res.body.createdAt);
      expect(createdAt).toBeGreaterThanOrEqual(before);
      expect(createdAt).toBeLessThanOrEqual(after);
      expect(Date.parse(res.body.expiresAt) - createdAt).toBe(5 * 60_000);
    });

    it('echoes every optional field as sent', async () => {
      const body = {
        amountMinor: 999_999_999,
        currency: 'VES',
        customerRef: 'c'.repeat(120),
        returnUrl: 'https://shop.example.com/return?order=42',
        description: 'd'.repeat(140),
        maxFailures: 2,
        expiresInMinutes: 30,
      };
      const res = await create(body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        amountMinor: 999_999_999,
        customerRef: body.customerRef,
        returnUrl: body.returnUrl,
        description: body.description,
        maxFailures: 2,
        attemptsRemaining: 3,
      });
    });

    it('takes createdAt and expiresAt from the sandbox clock', async () => {
      const realBefore = Date.now();
      sandbox.advance(7200);
      const res = await create(VALID);
      expect(Date.parse(res.body.createdAt)).toBeGreaterThanOrEqual(realBefore + 7_200_000);
    });

    it('gives each session its own id and reference', async () => {
      const [a, b] = await Promise.all([create(VALID), create(VALID)]);
      expect(a!.body.reference).not.toBe(b!.body.reference);
      expect(a!.body.id).not.toBe(b!.body.id);
    });

    it('answers 201 with the merchant\'s live key and marks the session live', async () => {
      const res = await create(VALID, keys.secretLive);
      expect(res.status).toBe(201);
      expect(res.body.mode).toBe('live');
    });
  });

  describe('expiresInMinutes', () => {
    it.each([
      ['omitted (default 5)', undefined, 5],
      ['the minimum 2', 2, 2],
      ['17', 17, 17],
      ['the maximum 60', 60, 60],
    ])('sets expiresAt exactly that many minutes after createdAt when %s', async (_label, minutes, expected) => {
      const res = await create({ ...VALID, ...(minutes === undefined ? {} : { expiresInMinutes: minutes }) });
      expect(res.status).toBe(201);
      expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(expected * 60_000);
    });
  });

  describe('maxFailures and attemptsRemaining', () => {
    it.each([
      ['omitted means unlimited', undefined, null, null],
      ['0 allows one attempt (not the same as omitted)', 0, 0, 1],
      ['3 allows four attempts', 3, 3, 4],
      ['10 (the maximum) allows eleven attempts', 10, 10, 11],
    ])('%s', async (_label, sent, maxFailures, attemptsRemaining) => {
      const res = await create({ ...VALID, ...(sent === undefined ? {} : { maxFailures: sent }) });
      expect(res.status).toBe(201);
      expect(res.body.maxFailures).toBe(maxFailures);
      expect(res.body.attemptsRemaining).toBe(attemptsRemaining);
      const read = await sandbox.request('GET', `/v1/sessions/${res.body.reference}`, { key: keys.secretTest });
      expect(read.body.maxFailures).toBe(maxFailures);
      expect(read.body.attemptsRemaining).toBe(attemptsRemaining);
    });
  });

  describe('400 for every invalid field', () => {
    const long = (n: number) => 'x'.repeat(n);
    it.each<[string, unknown, string, string]>([
      ['an empty body object', {}, 'parameter_missing', 'amountMinor'],
      ['amountMinor missing', { currency: 'VES' }, 'parameter_missing', 'amountMinor'],
      ['currency missing', { amountMinor: 1050 }, 'parameter_missing', 'currency'],
      ['amountMinor 0 (minimum is 1)', { ...VALID, amountMinor: 0 }, 'parameter_invalid', 'amountMinor'],
      ['amountMinor negative', { ...VALID, amountMinor: -5 }, 'parameter_invalid', 'amountMinor'],
      ['amountMinor with decimals (not minor units)', { ...VALID, amountMinor: 10.5 }, 'parameter_invalid', 'amountMinor'],
      ['amountMinor as a string', { ...VALID, amountMinor: '1050' }, 'parameter_invalid', 'amountMinor'],
      ['amountMinor null', { ...VALID, amountMinor: null }, 'parameter_invalid', 'amountMinor'],
      ['amountMinor beyond a safe integer', { ...VALID, amountMinor: 2 ** 53 }, 'parameter_invalid', 'amountMinor'],
      ['currency not VES or USD', { ...VALID, currency: 'EUR' }, 'parameter_invalid', 'currency'],
      ['currency in lower case', { ...VALID, currency: 'ves' }, 'parameter_invalid', 'currency'],
      ['returnUrl not a URL', { ...VALID, returnUrl: 'not a url' }, 'parameter_invalid', 'returnUrl'],
      ['returnUrl without a scheme', { ...VALID, returnUrl: 'shop.example.com/return' }, 'parameter_invalid', 'returnUrl'],
      ['returnUrl with a javascript: scheme', { ...VALID, returnUrl: 'javascript:alert(1)' }, 'parameter_invalid', 'returnUrl'],
      ['expiresInMinutes 1 (below 2; never clamped)', { ...VALID, expiresInMinutes: 1 }, 'parameter_invalid', 'expiresInMinutes'],
      ['expiresInMinutes 0', { ...VALID, expiresInMinutes: 0 }, 'parameter_invalid', 'expiresInMinutes'],
      ['expiresInMinutes 61 (above 60; never clamped)', { ...VALID, expiresInMinutes: 61 }, 'parameter_invalid', 'expiresInMinutes'],
      ['expiresInMinutes not whole minutes', { ...VALID, expiresInMinutes: 2.5 }, 'parameter_invalid', 'expiresInMinutes'],
      ['expiresInMinutes as a string', { ...VALID, expiresInMinutes: '5' }, 'parameter_invalid', 'expiresInMinutes'],
      ['maxFailures -1', { ...VALID, maxFailures: -1 }, 'parameter_invalid', 'maxFailures'],
      ['maxFailures 11', { ...VALID, maxFailures: 11 }, 'parameter_invalid', 'maxFailures'],
      ['maxFailures not whole', { ...VALID, maxFailures: 1.5 }, 'parameter_invalid', 'maxFailures'],
      ['maxFailures as a string', { ...VALID, maxFailures: '3' }, 'parameter_invalid', 'maxFailures'],
      ['maxFailures null', { ...VALID, maxFailures: null }, 'parameter_invalid', 'maxFailures'],
      ['description over 140 characters', { ...VALID, description: long(141) }, 'parameter_invalid', 'description'],
      ['description not a string', { ...VALID, description: 42 }, 'parameter_invalid', 'description'],
      ['customerRef over 120 characters', { ...VALID, customerRef: long(121) }, 'parameter_invalid', 'customerRef'],
      ['cardToken not starting with tok_svc_', { ...VALID, cardToken: 'tok_abc123' }, 'parameter_invalid', 'cardToken'],
      ['cardToken with the prefix elsewhere', { ...VALID, cardToken: 'x_tok_svc_abc' }, 'parameter_invalid', 'cardToken'],
      ['an unknown top-level field', { ...VALID, amount: 1050 }, 'parameter_unknown', 'amount'],
      ['prefill.documentId without prefill.documentType', { ...VALID, prefill: { documentId: '12345678' } }, 'parameter_invalid', 'prefill.documentId'],
      ['prefill.documentType not V, E, J, G or P', { ...VALID, prefill: { documentType: 'X' } }, 'parameter_invalid', 'prefill.documentType'],
      ['a V document with letters', { ...VALID, prefill: { documentType: 'V', documentId: 'A1234567' } }, 'parameter_invalid', 'prefill.documentId'],
      ['an E document with letters', { ...VALID, prefill: { documentType: 'E', documentId: '8123456X' } }, 'parameter_invalid', 'prefill.documentId'],
      ['a J document with letters', { ...VALID, prefill: { documentType: 'J', documentId: 'J12345678' } }, 'parameter_invalid', 'prefill.documentId'],
      ['a G document with letters', { ...VALID, prefill: { documentType: 'G', documentId: 'G2000123' } }, 'parameter_invalid', 'prefill.documentId'],
      ['a document of 4 characters (minimum 5)', { ...VALID, prefill: { documentType: 'V', documentId: '1234' } }, 'parameter_invalid', 'prefill.documentId'],
      ['a document of 13 characters (maximum 12)', { ...VALID, prefill: { documentType: 'V', documentId: '1234567890123' } }, 'parameter_invalid', 'prefill.documentId'],
      ['a document short only once separators are removed', { ...VALID, prefill: { documentType: 'V', documentId: '1.2.3.4' } }, 'parameter_invalid', 'prefill.documentId'],
      ['a passport with a symbol', { ...VALID, prefill: { documentType: 'P', documentId: 'AB#12345' } }, 'parameter_invalid', 'prefill.documentId'],
      ['an empty cardholderName', { ...VALID, prefill: { cardholderName: '' } }, 'parameter_invalid', 'prefill.cardholderName'],
      ['a cardholderName of only spaces', { ...VALID, prefill: { cardholderName: '   \t  ' } }, 'parameter_invalid', 'prefill.cardholderName'],
      ['a cardholderName empty after removing invisible characters', { ...VALID, prefill: { cardholderName: '\u200B\u200E\u202E\n' } }, 'parameter_invalid', 'prefill.cardholderName'],
      ['a cardholderName of 81 characters', { ...VALID, prefill: { cardholderName: 'A'.repeat(81) } }, 'parameter_invalid', 'prefill.cardholderName'],
      ['a cardholderName of 81 characters after collapsing spaces', { ...VALID, prefill: { cardholderName: `${'A'.repeat(40)}     ${'B'.repeat(40)}` } }, 'parameter_invalid', 'prefill.cardholderName'],
      ['a cardholderName that is not a string', { ...VALID, prefill: { cardholderName: 7 } }, 'parameter_invalid', 'prefill.cardholderName'],
      ['an unknown key inside prefill', { ...VALID, prefill: { cardholderName: 'Ana', email: 'ana@example.com' } }, 'parameter_unknown', 'prefill.email'],
      ['prefill that is not an object', { ...VALID, prefill: 'Ana Pérez' }, 'parameter_invalid', 'prefill'],
    ])('rejects %s', async (_label, body, code, field) => {
      const res = await create(body);
      const { message } = expectError(res, 400, code, field);
      expect(message).toContain(field);
    });

    it.each<[string, unknown]>([
      ['a JSON array', [VALID]],
      ['a JSON string', 'amountMinor=1050'],
      ['JSON null', null],
    ])('rejects a body that is %s with parameter_invalid and no field', async (_label, body) => {
      const res = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: JSON.stringify(body) });
      expectError(res, 400, 'parameter_invalid');
    });

    it('creates nothing when the request is refused', async () => {
      const { keys: own } = await sandbox.newMerchant();
      await sandbox.request('POST', '/v1/sessions', { key: own.secretTest, body: { ...VALID, expiresInMinutes: 61 } });
      await sandbox.request('POST', '/v1/sessions', { key: own.secretTest, body: { ...VALID, prefill: { documentType: 'V', documentId: 'abc' } } });
      const list = await sandbox.request('GET', '/v1/sessions', { key: own.secretTest });
      expect(list.body.total).toBe(0);
    });
  });

  describe('prefill normalisation', () => {
    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['separators stripped from the document number', { documentType: 'V', documentId: '12.345.678' }, { documentType: 'V', documentId: '12345678' }],
      ['dashes, spaces and slashes stripped', { documentType: 'J', documentId: '40/123 456-7' }, { documentType: 'J', documentId: '401234567' }],
      ['a passport number upper-cased', { documentType: 'P', documentId: 'ab-123 456' }, { documentType: 'P', documentId: 'AB123456' }],
      ['full-width digits folded to ASCII', { documentType: 'E', documentId: '８４１２３４５６' }, { documentType: 'E', documentId: '84123456' }],
      ['a lower-case document type accepted', { documentType: 'v', documentId: '12345678' }, { documentType: 'V', documentId: '12345678' }],
      ['documentType sent alone', { documentType: 'P' }, { documentType: 'P' }],
      ['extra whitespace collapsed and the name trimmed', { cardholderName: '  María   José \t Pérez  ' }, { cardholderName: 'María José Pérez' }],
      ['zero-width spaces and direction marks removed', { cardholderName: 'Ana\u200B Mar\u200Fía\u202E' }, { cardholderName: 'Ana María' }],
      ['line breaks and control characters removed', { cardholderName: 'Luis\r\n Gómez\u0000\u0007' }, { cardholderName: 'Luis Gómez' }],
      ['a decomposed accent counted as one letter (NFC)', { cardholderName: 'Jose\u0301' }, { cardholderName: 'José' }],
      [
        'the 80-character limit applied after cleaning',
        { cardholderName: `${'A'.repeat(40)}\u200B\u200B\u200B     ${'B'.repeat(39)}\n` },
        { cardholderName: `${'A'.repeat(40)} ${'B'.repeat(39)}` },
      ],
      ['all three fields together', { cardholderName: ' Ana  Pérez ', documentType: 'V', documentId: '12.345.678' }, { cardholderName: 'Ana Pérez', documentType: 'V', documentId: '12345678' }],
    ])('stores %s, and GET shows the same', async (_label, prefill, expected) => {
      const res = await create({ ...VALID, prefill });
      expect(res.status, res.text).toBe(201);
      expect(res.body.prefill).toEqual(expected);
      const read = await sandbox.request('GET', `/v1/sessions/${res.body.reference}`, { key: keys.secretTest });
      expect(read.body.prefill).toEqual(expected);
    });

    it('stores an 80-character name (the limit itself)', async () => {
      const res = await create({ ...VALID, prefill: { cardholderName: 'N'.repeat(80) } });
      expect(res.status).toBe(201);
      expect(res.body.prefill.cardholderName).toHaveLength(80);
    });

    it.each([
      ['omitted', {}],
      ['null', { prefill: null }],
    ])('shows prefill null when it was %s', async (_label, extra) => {
      const res = await create({ ...VALID, ...extra });
      expect(res.status).toBe(201);
      expect(res.body.prefill).toBeNull();
    });
  });

  describe('cardToken', () => {
    it('answers 404 resource_missing on cardToken for a token no merchant has', async () => {
      const res = await create({ ...VALID, cardToken: 'tok_svc_DoesNotExist0000000000' });
      expectError(res, 404, 'resource_missing', 'cardToken');
    });

    // Stored cards are written directly: approved charges, which store them, come in a later issue.
    it.each([
      ['of another merchant', { merchantId: 'mer_someoneElse', mode: 'test' as const }],
      ['of the other mode', { mode: 'live' as const }],
      ['that was deleted', { status: 'deleted' as const }],
    ])('answers 404 for a card %s, as if it did not exist', async (_label, card) => {
      const stored = await putStoredCard(sandbox.deps, { merchantId: merchant.id, mode: 'test', ...card });
      const res = await create({ ...VALID, cardToken: stored.svcToken });
      expectError(res, 404, 'resource_missing', 'cardToken');
    });

    it('accepts an active card of the merchant and inherits its customerRef when none is sent', async () => {
      const card = await putStoredCard(sandbox.deps, { merchantId: merchant.id, mode: 'test', customerRef: 'cust_42' });
      const res = await create({ ...VALID, cardToken: card.svcToken });
      expect(res.status).toBe(201);
      expect(res.body.customerRef).toBe('cust_42');
      expect(JSON.stringify(res.body)).not.toContain(card.svcToken);
    });

    it('refuses a customerRef other than the card\'s with 409 customer_mismatch (the customer guard), and accepts its own', async () => {
      const card = await putStoredCard(sandbox.deps, { merchantId: merchant.id, mode: 'test', customerRef: 'cust_42' });
      expectError(await create({ ...VALID, cardToken: card.svcToken, customerRef: 'cust_other' }), 409, 'customer_mismatch');
      const own = await create({ ...VALID, cardToken: card.svcToken, customerRef: 'cust_42' });
      expect(own.status).toBe(201);
      expect(own.body.customerRef).toBe('cust_42');
    });
  });

  describe('merchant state and mode', () => {
    it.each([
      ['test', 'secretTest'],
      ['live', 'secretLive'],
    ] as const)('answers 409 merchant_not_provisioned to a %s key while the merchant is not provisioned, and creates nothing', async (_mode, keyName) => {
      const { keys: own } = await sandbox.newMerchant({ provisioned: false });
      const res = await sandbox.request('POST', '/v1/sessions', { key: own[keyName], body: VALID });
      expectError(res, 409, 'merchant_not_provisioned');
      const list = await sandbox.request('GET', '/v1/sessions', { key: own[keyName] });
      expect(list.body.total).toBe(0);
    });

    it('answers 409 test_mode_off to a test key while test mode is off, telling to use the live key; the live key works', async () => {
      const { keys: own } = await sandbox.newMerchant({ changes: { testMode: { bank_direct: false } } });
      const refused = await sandbox.request('POST', '/v1/sessions', { key: own.secretTest, body: VALID });
      const { message } = expectError(refused, 409, 'test_mode_off');
      expect(message).toMatch(/live/i);
      expect(message).toContain('sk_live_');
      const live = await sandbox.request('POST', '/v1/sessions', { key: own.secretLive, body: VALID });
      expect(live.status).toBe(201);
      expect(live.body.mode).toBe('live');
    });

    it('answers 409 test_mode_unsupported to a test key for USD (the card processor has no test environment)', async () => {
      const res = await create({ amountMinor: 2500, currency: 'USD' });
      const { message } = expectError(res, 409, 'test_mode_unsupported');
      expect(message).toMatch(/live/i);
    });

    it('creates a USD session with the live key', async () => {
      const res = await create({ amountMinor: 2500, currency: 'USD' }, keys.secretLive);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ currency: 'USD', amountMinor: 2500, mode: 'live', status: 'created' });
    });
  });
});
