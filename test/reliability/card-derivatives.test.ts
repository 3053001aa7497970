/**
 * Issue 21, finding 1: no unkeyed derivative of a card number or CVV is kept anywhere. After checkout charges with
 * new cards (approved, declined, OTP) and a stored card (CVV-only checkout and a server-to-server charge), every
 * attribute of every table item, every stream record, every log line and every answer is searched for the numbers
 * and CVVs used, in clear and as MD5, SHA-1 or SHA-256 (hex and base64) of any field or body that held them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, DOCUMENT, openSession, TEST_CARDS } from '../support/checkout.ts';
import { canonicalJson } from '../../shared/http/middlewares/idempotency.ts';
import { cardDerivatives, findDerivatives, type SentCardRequest } from '../support/card-derivatives.ts';
import { scanTable } from '../support/dynamo.ts';
import { scanForLeaks, textsOf } from '../support/leak-scanner.ts';
import { captureOutput, startVerboseTestSandbox } from '../support/output-capture.ts';
import type { TestResponse, TestSandbox } from '../support/sandbox.ts';
import { streamRecordTexts } from '../support/stream-records.ts';
import { SUITE_TIMEOUT_MS } from './suite-limits.ts';

/** CVVs only this file sends, so a hit is ours. */
const CVVS = ['604', '7391', '286'];

describe('card data derivatives', { timeout: SUITE_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  const sent: SentCardRequest[] = [];
  const answers: { source: string; text: string }[] = [];

  /** A checkout charge as the buyer's browser sends it, remembered for the derivative list. */
  async function pay(sessionReference: string, cardFields: Record<string, unknown>): Promise<TestResponse> {
    const body = { sessionReference, card: cardFields, document: DOCUMENT };
    sent.push({ method: 'POST', path: '/v1/checkout/charge', body });
    const res = await sandbox.request('POST', '/v1/checkout/charge', { body, headers: { 'idempotency-key': randomUUID() } });
    answers.push({ source: `checkout charge -> ${res.status}`, text: res.text });
    return res;
  }

  beforeAll(async () => {
    // The bank's default deadline: no card here waits it out, and a short one would leave a charge pending on a busy machine.
    sandbox = await startVerboseTestSandbox({});
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('keeps no card number or CVV, in clear or as an unkeyed hash, in the table, the stream, logs or answers', async () => {
    const output = captureOutput();
    let merchantId = '';
    try {
      const { merchant, keys } = await sandbox.newMerchant();
      merchantId = merchant.id;
      const approved = await openSession(sandbox, keys.secretTest, { customerRef: `cus_${randomUUID()}` });
      expect((await pay(approved.reference, card(TEST_CARDS.visa, { cvv: CVVS[0] }))).body.transaction.status).toBe('approved');
      const declined = await openSession(sandbox, keys.secretTest, { maxFailures: 1 });
      expect((await pay(declined.reference, card(TEST_CARDS.insufficientFunds, { cvv: CVVS[1] }))).body.transaction.status).toBe('declined');
      const otp = await openSession(sandbox, keys.secretTest);
      await pay(otp.reference, card(`${TEST_CARDS.otp.slice(0, 4)} ${TEST_CARDS.otp.slice(4, 8)} ${TEST_CARDS.otp.slice(8, 12)} ${TEST_CARDS.otp.slice(12)}`, { cvv: CVVS[2] }));

      // The stored card: a CVV-only checkout, then a server-to-server charge (no card data in its body).
      const cards = await sandbox.request('GET', `/v1/cards?customerRef=${approved.customerRef}`, { key: keys.secretTest });
      const token = (cards.body as { svcToken: string }[])[0]!.svcToken;
      const stored = await openSession(sandbox, keys.secretTest, { cardToken: token });
      expect((await pay(stored.reference, { cvv: CVVS[1] })).status).toBe(200);
      const server = await sandbox.request('POST', '/v1/charges', { key: keys.secretTest, body: { svcToken: token, amountMinor: 500, currency: 'VES' }, headers: { 'idempotency-key': randomUUID() } });
      answers.push({ source: `server charge -> ${server.status}`, text: server.text });
      await sandbox.background.drain();
    } finally {
      output.stop();
    }

    const texts = [
      ...(await scanTable()).flatMap((item) => textsOf(`item ${String(item.pk)} ${String(item.sk)}`, item)),
      ...(await streamRecordTexts()),
      ...output.lines.map((text, i) => ({ source: `log line ${i}`, text })),
      ...answers,
    ];
    const derivatives = cardDerivatives(sent);
    expect(derivatives.size).toBeGreaterThan(100);
    expect(findDerivatives(texts, derivatives)).toEqual([]);
    // In clear: this file's own data (the table and stream hold every test file's; leaks.test.ts scans the table whole).
    const ours = texts.filter(({ source, text }) => (!source.startsWith('item') && !source.startsWith('stream')) || text.includes(merchantId));
    expect(ours.length).toBeGreaterThan(answers.length);
    expect(scanForLeaks(ours, { cvvs: CVVS }).filter((f) => f.kind === 'card_number' || f.kind === 'cvv')).toEqual([]);
  });

  it('the derivative scan finds a planted hash of a body, a number and a CVV (so zero findings means something)', () => {
    const body = { sessionReference: 'cs_planted', card: card(TEST_CARDS.visa, { cvv: '604' }) };
    const derivatives = cardDerivatives([{ method: 'POST', path: '/v1/checkout/charge', body }]);
    const planted = [
      { source: 'fingerprint', text: JSON.stringify({ fingerprint: createHash('sha256').update(`POST /v1/checkout/charge\n${canonicalJson(body)}`).digest('hex') }) },
      { source: 'pan md5', text: createHash('md5').update(TEST_CARDS.visa).digest('hex').toUpperCase() },
      { source: 'cvv sha1 b64', text: `x=${createHash('sha1').update('604').digest('base64')}` },
      { source: 'unrelated', text: createHash('sha256').update('something else').digest('hex') },
    ];
    expect(findDerivatives(planted, derivatives).map((f) => f.source)).toEqual(['fingerprint', 'pan md5', 'cvv sha1 b64']);
  });
});
