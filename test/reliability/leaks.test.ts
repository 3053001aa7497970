/**
 * Issue 9.5: after payment, vault, webhook and failure flows with every log level on, no card number, CVV,
 * webhook secret, API key or credential appears in clear in any DynamoDB item, log line, event body or answer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { scanTable } from '../support/dynamo.ts';
import { figureCounter, reportFigures } from '../support/figures.ts';
import { scanForLeaks, textsOf } from '../support/leak-scanner.ts';
import { captureOutput, startVerboseTestSandbox } from '../support/output-capture.ts';
import type { TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';
import { SUITE_TIMEOUT_MS } from './suite-limits.ts';
import { MERCANTIL_TEST_DEBIT_CARD } from '../../shared/connectors/mercantil/profile.ts';
import { payBody } from '../../shared/connectors/mercantil/requests.ts';
import { createLogger } from '../../shared/observability/logger.ts';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_CREDENTIAL_SET, SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { c2pPurchaseBody } from '../../shared/connectors/mercantil/pago-movil-requests.ts';
import { caracasDay } from '../../shared/domain/pago-movil.ts';
import { PAGO_MOVIL_TEST_DATA } from '../../infra/sandbox/mercantil/pago-movil-desk.ts';

/** CVVs only this file sends, so a hit is ours and not a coincidence. */
const CVVS = ['847', '3916', '572'];
const AUTH_PASSWORD = `pw-${randomUUID()}`;
const AUTH_TOKEN = `tk-${randomUUID()}`;

describe('leaks', { timeout: SUITE_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  const answers: { source: string; text: string }[] = [];
  const figures = figureCounter('itemsScanned', 'logLinesScanned', 'eventBodiesScanned', 'answersScanned', 'findings');

  beforeAll(async () => {
    sandbox = await startVerboseTestSandbox({ gatewayTimeoutMs: 300 });
    receiver = await startReceiver();
    // Every answer the suite gets is scanned too.
    const request = sandbox.request.bind(sandbox);
    sandbox.request = async (method, path, options) => {
      const res = await request(method, path, options);
      answers.push({ source: `${method} ${path} -> ${res.status}`, text: res.text });
      return res;
    };
  });
  afterAll(async () => {
    reportFigures('leaks', figures);
    await sandbox?.stop();
    await receiver?.close();
  });

  it('finds no secret in clear anywhere after the flows', async () => {
    const output = captureOutput();
    const secrets: string[] = [AUTH_PASSWORD, AUTH_TOKEN];
    let merchantKeys: string[] = [];
    try {
      const { keys } = await sandbox.newMerchant();
      merchantKeys = [keys.secretTest, keys.secretLive, keys.restrictedTest, keys.restrictedLive];
      const basic = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${receiver.url}/basic`, authType: 'basic', authUsername: 'merchant', authPassword: AUTH_PASSWORD } });
      const bearer = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${receiver.url}/bearer`, authType: 'bearer', authToken: AUTH_TOKEN } });
      expect([basic.status, bearer.status]).toEqual([201, 201]);
      // The signing secret is shown once, in this answer, by design (spec): everywhere else it is a leak.
      for (const created of [basic, bearer]) {
        secrets.push(created.body.secret);
        answers.pop();
      }
      answers.push(...[basic, bearer].map((r) => ({ source: 'endpoint created (secret removed)', text: r.text.replaceAll(r.body.secret, '<shown once>') })));

      const flows: [string, Record<string, unknown>, Record<string, unknown>][] = [
        [TEST_CARDS.visa, { cvv: CVVS[0] }, { customerRef: 'cust_leak' }],
        [TEST_CARDS.mastercard, { cvv: CVVS[1] }, {}],
        [TEST_CARDS.insufficientFunds, { cvv: CVVS[2] }, {}],
        [TEST_CARDS.wrongCvv, { cvv: CVVS[0] }, {}],
        [TEST_CARDS.processorError, { cvv: CVVS[1] }, {}],
        [TEST_CARDS.timeout, { cvv: CVVS[2] }, {}],
        [TEST_CARDS.visa, { cvv: CVVS[0], expYear: 2001 }, {}],
        // A card number in the name field (autofill, a paste), refused and approved: neither may store it.
        [TEST_CARDS.visa, { cvv: 'abc', holderName: TEST_CARDS.mastercard }, {}],
        [TEST_CARDS.visa, { cvv: CVVS[0], holderName: '5555-5555 5555 4444' }, { customerRef: 'cust_leak_name' }],
      ];
      for (const [number, overrides, sessionBody] of flows) {
        const session = await openSession(sandbox, keys.secretTest, { maxFailures: 2, ...sessionBody });
        await checkoutCharge(sandbox, session.reference, { card: card(number, overrides) });
      }
      // OTP: a wrong code, then the right one.
      const otpSession = await openSession(sandbox, keys.secretTest);
      const otp = await checkoutCharge(sandbox, otpSession.reference, { card: card(TEST_CARDS.otp, { cvv: CVVS[1] }) });
      for (const code of ['000000', '123456']) {
        await sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference: otpSession.reference, transactionReference: otp.body.transaction.reference, code }, headers: { 'idempotency-key': randomUUID() } });
      }
      // The vault: a stored card charged server to server and in a CVV-only checkout.
      const cards = await sandbox.request('GET', '/v1/cards', { key: keys.secretTest });
      const token = cards.status === 200 ? (cards.body as { svcToken: string }[])[0]?.svcToken : undefined;
      if (token) {
        await sandbox.request('POST', '/v1/charges', { key: keys.secretTest, body: { svcToken: token, amountMinor: 500, currency: 'VES' }, headers: { 'idempotency-key': randomUUID() } });
        const stored = await openSession(sandbox, keys.secretTest, { cardToken: token });
        await sandbox.request('POST', '/v1/checkout/charge', { body: { sessionReference: stored.reference, card: { cvv: CVVS[2] } }, headers: { 'idempotency-key': randomUUID() } });
      }
      sandbox.advance(61);
      await sandbox.request('GET', '/v1/transactions?pageSize=100', { key: keys.secretTest });
      await sandbox.request('GET', '/v1/webhooks/deliveries', { key: keys.secretTest });
      // A request that fails with the key and a card number in odd places.
      await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1, currency: 'VES', description: 'x'.repeat(200) } });
      await sandbox.request('GET', `/v1/sessions/${TEST_CARDS.visa}`, { key: keys.secretTest });
      await sandbox.background.drain();
      for (const path of ['/v1/sessions?pageSize=100', '/v1/webhooks/deliveries']) await sandbox.request('GET', path, { key: keys.secretTest });
    } finally {
      output.stop();
    }

    const items = await scanTable();
    const events = receiver.received.map((r) => ({ source: `webhook body ${r.path}`, text: r.rawBody }));
    const texts = [
      ...items.flatMap((item) => textsOf(`item ${String(item.pk)}`, item)),
      ...output.lines.map((text, i) => ({ source: `log line ${i}`, text })),
      ...events,
      ...answers,
    ];
    figures.itemsScanned = items.length;
    figures.logLinesScanned = output.lines.length;
    figures.eventBodiesScanned = events.length;
    figures.answersScanned = answers.length;
    const findings = scanForLeaks(texts, { cvvs: CVVS, secrets: [...secrets, ...merchantKeys] });
    figures.findings = findings.length;

    expect(output.lines.length, 'no log line captured: the scan would prove nothing').toBeGreaterThan(0);
    expect(events.length).toBeGreaterThan(0);
    expect(findings, JSON.stringify(findings)).toEqual([]);
  });

  it('keeps pago móvil keys out of every item, log line, event and answer, and phones and cédulas out of log lines and events (C2P and P2C)', async () => {
    // A wrong key only this test sends, the sandbox's right one, and a payer phone and cédula only this test uses.
    const wrongKey = '73915284';
    const phone = '04167391528';
    const cedula = '17391528';
    const output = captureOutput();
    const before = answers.length;
    let merchantId = '';
    try {
      const { merchant, keys } = await sandbox.newMerchant({
        changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true }, pagoMovil: { gateways: { pago_movil_c2p: 'mercantil', pago_movil_p2c: 'mercantil' }, payee: { phone: '04241112233', rif: 'J-07013380-5' } } },
      });
      merchantId = merchant.id;
      await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
      const payer = { bankCode: '0105', phone, documentType: 'V', documentId: cedula };
      const c2p = (sessionReference: string, key: string) =>
        sandbox.request('POST', '/v1/checkout/pago-movil/charge', { body: { sessionReference, ...payer, key }, headers: { 'idempotency-key': randomUUID() } });
      const session = await openSession(sandbox, keys.secretTest, { maxFailures: 3 });
      await sandbox.request('POST', '/v1/checkout/pago-movil/key', { body: { sessionReference: session.reference, ...payer } });
      await c2p(session.reference, wrongKey);
      const paid = await c2p(session.reference, PAGO_MOVIL_TEST_DATA.key);
      await sandbox.request('POST', `/v1/transactions/${paid.body.transaction.reference}/refunds`, { key: keys.secretTest, body: { amountMinor: 100 }, headers: { 'idempotency-key': randomUUID() } });
      // A debit whose answer never came, settled by the status read.
      const late = await openSession(sandbox, keys.secretTest);
      sandbox.mercantil.injectFault('c2p', 'timeout');
      await c2p(late.reference, PAGO_MOVIL_TEST_DATA.key);
      sandbox.advance(61);
      await sandbox.request('GET', `/v1/checkout/sessions/${late.reference}`);
      // Bad input carrying the key and the phone.
      await sandbox.request('POST', '/v1/checkout/pago-movil/charge', { body: { sessionReference: late.reference, ...payer, bankCode: '9999', key: wrongKey }, headers: { 'idempotency-key': randomUUID() } });
      expect(paid.body.transaction.status).toBe('approved');
      // P2C from the same phone (references that do not contain the key): the buyer's (found), the merchant's (not yet).
      const paidOn = caracasDay(new Date(sandbox.clock.now()));
      sandbox.mercantil.pagoMovil.receivePayment({ payerPhone: `58${phone.slice(1)}`, amountMinor: 1050, reference: '84150062001', date: paidOn });
      const p2c = { bankCode: '0105', phone, paidOn };
      const byBuyer = await sandbox.request('POST', '/v1/checkout/pago-movil/reference', {
        body: { sessionReference: (await openSession(sandbox, keys.secretTest)).reference, reference: '84150062001', ...p2c },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(byBuyer.body.transaction.status).toBe('approved');
      const byMerchant = await sandbox.request('POST', `/v1/sessions/${(await openSession(sandbox, keys.secretTest)).reference}/pago-movil-reference`, {
        key: keys.secretTest,
        body: { reference: '84150062002', ...p2c },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(byMerchant.status).toBe(202);
      // What a careless debug line of the route or the connector would print: the request and the bank's body.
      const wire = c2pPurchaseBody(
        { credentials: SIMULATOR_CREDENTIAL_SET, merchantPhone: '04241112233', client: { ipAddress: '203.0.113.9', userAgent: 'test' } },
        { transactionReference: 'txn_leak', amountMinor: 500, payer: { bankCode: '0105', phone, document: { type: 'V', id: cedula } }, key: wrongKey },
      );
      createLogger({ logLevel: 'DEBUG' }).debug('C2P charge', { body: { sessionReference: late.reference, ...payer, key: wrongKey }, wire, note: `payer ${phone}, +58 ${phone.slice(1)}` });
    } finally {
      output.stop();
    }
    const items = await scanTable();
    const logs = output.lines.map((text, i) => ({ source: `log line ${i}`, text }));
    const events = (await sandbox.deps.outbox.listForMerchant(merchantId, 'test')).map((e) => ({ source: `event ${e.envelope.type}`, text: JSON.stringify(e.envelope) }));
    const everywhere = [...items.flatMap((item) => textsOf(`item ${String(item.pk)}`, item)), ...logs, ...events, ...answers.slice(before)];
    expect(output.lines.join('\n'), 'the debug line was not written: the scan would prove nothing').toContain('C2P charge');
    expect(events.length).toBeGreaterThan(0);
    expect(scanForLeaks(everywhere, { secrets: [wrongKey, PAGO_MOVIL_TEST_DATA.key] })).toEqual([]);
    // The merchant reads the payer whole in the transaction detail (a table item, an answer); logs and events never do.
    const international = `58${phone.slice(1)}`;
    expect(scanForLeaks([...logs, ...events], { secrets: [phone, international, cedula] })).toEqual([]);
  });

  it("logs nothing of the Mercantil code step's body at DEBUG: code, AES key, client id, twofactor_auth, the Luhn-failing card (issue 33, finding 4)", () => {
    const credentials = { clientId: `cid-${randomUUID()}`, secretKey: `key-${randomUUID()}`, integratorId: 31, merchantId: 123456, terminalId: 'abcde' };
    const code = '73915280';
    const payment = { card: { number: MERCANTIL_TEST_DEBIT_CARD, expMonth: 11, expYear: 2040, cvv: '111', holderName: 'ANA PEREZ' }, document: { type: 'V' as const, id: '9999999' } };
    const body = payBody(credentials, { transactionReference: 'txn_leak', amountMinor: 500, payment, client: { ipAddress: '203.0.113.9', userAgent: 'test' }, debit: { code, accountType: 'CC' } });
    const grouped = MERCANTIL_TEST_DEBIT_CARD.replace(/(\d{4})/g, '$1 ').trim();
    const secrets = [code, credentials.secretKey, credentials.clientId, body.transaction.twofactor_auth!, body.transaction.cvv, MERCANTIL_TEST_DEBIT_CARD, grouped];
    const output = captureOutput();
    try {
      // What a careless debug line of the connector or of confirm-otp would print: the request, the entry, the credentials.
      const logger = createLogger({ logLevel: 'DEBUG' });
      logger.debug('Mercantil pay request', { url: 'https://bank.example/v1/payment/pay', headers: { 'X-IBM-Client-Id': credentials.clientId }, body });
      logger.debug('OTP entry', { entry: { code, cvv: '111', accountType: 'CC' }, credentials });
      logger.debug(`Paying with card ${MERCANTIL_TEST_DEBIT_CARD} (${grouped})`);
    } finally {
      output.stop();
    }
    const lines = output.lines.map((text, i) => ({ source: `log line ${i}`, text }));
    expect(lines.length, 'the logger wrote nothing at DEBUG: the scan would prove nothing').toBeGreaterThanOrEqual(3);
    expect(output.lines.join('\n'), 'the body was logged').toContain(body.transaction.invoice_number);
    expect(scanForLeaks(lines, { cvvs: ['111'], secrets })).toEqual([]);
  });

  it('the scanner itself finds each kind of leak (so zero findings means something)', () => {
    const planted = scanForLeaks(
      [
        { source: 'a', text: 'card 4111 1111 1111 1111 here' },
        { source: 'b', text: '{"number":"5555555555554444"}' },
        { source: 'c', text: '{"cvv":"847"}' },
        { source: 'd', text: 'secret whsec_abcdefghijklmnop' },
        { source: 'e', text: 'Authorization: Bearer sk_test_abcdefghijklmnop' },
        { source: 'f', text: `pw ${AUTH_PASSWORD}` },
        { source: 'g', text: 'at 1763700000000 and id 4111111111111112, txn_4111111111111111abc' },
        { source: 'h', text: '{"id":"46904062-5995-4143-aaa1-bb4a615dfc49","number":"4111-1111-1111-1111"}' },
      ],
      { cvvs: CVVS, secrets: [AUTH_PASSWORD] },
    );
    expect(planted.map((f) => [f.source, f.kind])).toEqual([
      ['a', 'card_number'],
      ['b', 'card_number'],
      ['c', 'cvv'],
      ['d', 'webhook_secret'],
      ['e', 'api_key'],
      ['f', 'credential'],
      ['h', 'card_number'],
    ]);
  });
});
