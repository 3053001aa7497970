import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CardListSchema, CardSchema } from '../../shared/schemas/card-responses.ts';
import { CheckoutSessionSchema } from '../../shared/schemas/checkout-responses.ts';
import { expectError, expectRateLimited } from '../support/assertions.ts';
import { alignToNextMinute } from '../support/clock.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { itemsOfMerchants } from '../support/dynamo.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';

describe('Stored cards: vault, tokens, list and delete', () => {
  let sandbox: TestSandbox;
  /** Every response of this file, for the leak scan at the end. */
  const responses: TestResponse[] = [];
  const merchants: string[] = [];
  /** The sandbox's log lines (JSON, one per write), kept from the console for the leak scan. */
  const logLines: string[] = [];
  let receiver: TestReceiver;
  beforeAll(async () => {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        if (typeof chunk === 'string' && chunk.startsWith('{"level"')) return logLines.push(chunk) > 0;
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write);
    }
    sandbox = await startTestSandbox({ logLevel: 'DEBUG' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await sandbox.stop();
    await receiver.close();
    vi.restoreAllMocks();
  });

  const seen = async (res: Promise<TestResponse>) => {
    const r = await res;
    responses.push(r);
    return r;
  };
  const merchant = async () => {
    const m = await sandbox.newMerchant();
    merchants.push(m.merchant.id);
    return m;
  };
  const listCards = (key: string, query = '') => seen(sandbox.request('GET', `/v1/cards${query}`, { key }));
  const payNewCard = async (key: string, sessionBody: Record<string, unknown>, payCard = card(TEST_CARDS.visa)) => {
    const session = await openSession(sandbox, key, sessionBody);
    const res = await seen(checkoutCharge(sandbox, session.reference, { card: payCard }));
    return { session, res };
  };
  const cardEvents = async (merchantId: string) =>
    (await sandbox.deps.outbox.listForMerchant(merchantId, 'test')).map((e) => e.envelope).filter((e) => e.type.startsWith('card.'));

  it('stores the card of an approved charge on a session with a customerRef: tok_svc_ token, card.stored, no number', async () => {
    const { merchant: m, keys } = await merchant();
    // Its events are delivered too, so that the leak scan reads them as sent and the sender's log lines.
    await seen(sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: receiver.url } }));

    const { res } = await payNewCard(keys.secretTest, { customerRef: 'cust_1' });
    const list = await listCards(keys.secretTest);

    expect(res.body.transaction.status).toBe('approved');
    expect(list.status).toBe(200);
    expect(CardListSchema.parse(list.body)).toHaveLength(1);
    const [stored] = list.body;
    expect(stored).toEqual({
      id: expect.any(String),
      svcToken: expect.stringMatching(/^tok_svc_[0-9A-Za-z]{24}$/),
      brand: 'visa',
      lastFour: '1111',
      expMonth: 12,
      expYear: 2030,
      holderName: 'Ana Pérez',
      status: 'active',
      customerRef: 'cust_1',
      createdAt: expect.any(String),
      gatewayAuthStatus: null,
      gatewayAuthenticatedAt: null,
      gatewayAuthExpiresAt: null,
    });
    const events = await cardEvents(m.id);
    expect(events.map((e) => [e.type, e.data])).toEqual([['card.stored', { svcToken: stored.svcToken, brand: 'visa', lastFour: '1111', customerRef: 'cust_1' }]]);
  });

  it('stores nothing without a customerRef, nor for a declined charge', async () => {
    const { merchant: m, keys } = await merchant();

    await payNewCard(keys.secretTest, {});
    const declined = await payNewCard(keys.secretTest, { customerRef: 'cust_1' }, card(TEST_CARDS.insufficientFunds));

    expect(declined.res.body.transaction.status).toBe('declined');
    expect((await listCards(keys.secretTest)).body).toEqual([]);
    expect(await cardEvents(m.id)).toEqual([]);
  });

  it('keeps one record for the same customer and card paying twice; another expiry or another customer is another card', async () => {
    const { merchant: m, keys } = await merchant();

    await payNewCard(keys.secretTest, { customerRef: 'cust_1' });
    await payNewCard(keys.secretTest, { customerRef: 'cust_1' }, card(TEST_CARDS.visa, { cvv: '999', holderName: 'Otro Nombre' }));
    await payNewCard(keys.secretTest, { customerRef: 'cust_1' }, card(TEST_CARDS.visa, { expYear: 2031 }));
    await payNewCard(keys.secretTest, { customerRef: 'cust_2' });

    const all = (await listCards(keys.secretTest)).body as { customerRef: string; expYear: number }[];
    expect(all.map((c) => [c.customerRef, c.expYear]).sort()).toEqual([
      ['cust_1', 2030],
      ['cust_1', 2031],
      ['cust_2', 2030],
    ]);
    expect((await cardEvents(m.id)).filter((e) => e.type === 'card.stored')).toHaveLength(3);
    const mine = await listCards(keys.secretTest, '?customerRef=cust_2');
    expect(mine.body.map((c: { customerRef: string }) => c.customerRef)).toEqual(['cust_2']);
  });

  it('stores the card once when two approvals of the same customer and card race', async () => {
    const { merchant: m, keys } = await merchant();
    const sessions = await Promise.all([1, 2, 3].map(() => openSession(sandbox, keys.secretTest, { customerRef: 'cust_race' })));

    const paid = await Promise.all(sessions.map((s) => seen(checkoutCharge(sandbox, s.reference))));

    expect(paid.map((r) => r.body.transaction.status)).toEqual(['approved', 'approved', 'approved']);
    expect((await listCards(keys.secretTest)).body).toHaveLength(1);
    expect((await cardEvents(m.id)).filter((e) => e.type === 'card.stored')).toHaveLength(1);
  });

  it('stores the card when the approval comes with the OTP confirmation, in a later request', async () => {
    const { keys } = await merchant();
    const session = await openSession(sandbox, keys.secretTest, { customerRef: 'cust_otp' });
    const charged = await seen(checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.otp) }));

    const confirmed = await seen(
      sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference: session.reference, transactionReference: charged.body.transaction.reference, code: '123456' } }),
    );

    expect(confirmed.body.transaction.status).toBe('approved');
    expect((await listCards(keys.secretTest)).body.map((c: { lastFour: string }) => c.lastFour)).toEqual(['3220']);
  });

  describe('a stored-card session', () => {
    it('is paid with the CVV only: the checkout shows brand and last four, the bank gets the vault number', async () => {
      const { keys } = await merchant();
      await payNewCard(keys.secretTest, { customerRef: 'cust_cvv' });
      const [stored] = (await listCards(keys.secretTest)).body;
      const session = await openSession(sandbox, keys.secretTest, { cardToken: stored.svcToken });

      const page = await seen(sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`));
      const paid = await seen(
        sandbox.request('POST', '/v1/checkout/charge', { body: { sessionReference: session.reference, card: { cvv: '123' } }, headers: { 'idempotency-key': randomUUID() } }),
      );

      expect(session.customerRef).toBe('cust_cvv');
      expect(CheckoutSessionSchema.parse(page.body)).toMatchObject({ storedCard: { brand: 'visa', lastFour: '1111' }, requiresDocument: false, prefill: null });
      expect(paid.status).toBe(200);
      expect(paid.body.transaction).toMatchObject({ status: 'approved', card: { brand: 'visa', lastFour: '1111' } });
      expect(sandbox.bank.calls({ reference: paid.body.transaction.reference, operation: 'charge' })).toHaveLength(1);
      // Paying again with the stored card does not store it again.
      expect((await listCards(keys.secretTest)).body).toHaveLength(1);
    });

    it('refuses a typed card number with 400 before any attempt; a new-card session still needs one', async () => {
      const { keys } = await merchant();
      await payNewCard(keys.secretTest, { customerRef: 'cust_shape' });
      const [stored] = (await listCards(keys.secretTest)).body;
      const storedSession = await openSession(sandbox, keys.secretTest, { cardToken: stored.svcToken });
      const newSession = await openSession(sandbox, keys.secretTest);

      const typed = await seen(checkoutCharge(sandbox, storedSession.reference, { card: card(TEST_CARDS.visa), document: null }));
      const missing = await seen(
        sandbox.request('POST', '/v1/checkout/charge', { body: { sessionReference: newSession.reference, card: { cvv: '123' } }, headers: { 'idempotency-key': randomUUID() } }),
      );

      expectError(typed, 400, 'parameter_unknown', 'card.number');
      expectError(missing, 400, 'parameter_missing', 'card.number');
      const after = await sandbox.request('GET', `/v1/sessions/${storedSession.reference}`, { key: keys.secretTest });
      expect(after.body.attemptCount).toBe(0);
    });

    it('keeps the prefill as sent (cleaned) on the session while the checkout shows only what the card does not override', async () => {
      const { keys } = await merchant();
      await payNewCard(keys.secretTest, { customerRef: 'cust_prefill' });
      const [stored] = (await listCards(keys.secretTest)).body;
      const prefill = { cardholderName: '  Ana   Pérez ', documentType: 'V', documentId: '12.345.678' };

      const session = await openSession(sandbox, keys.secretTest, { cardToken: stored.svcToken, prefill });
      const page = await seen(sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`));

      expect(session.prefill).toEqual({ cardholderName: 'Ana Pérez', documentType: 'V', documentId: '12345678' });
      // Holder and document stored: the whole prefill is ignored, the buyer gives only the CVV.
      expect(page.body.prefill).toBeNull();
    });

    it('answers 409 card_unavailable when its card was deleted after the session was created, without an attempt', async () => {
      const { keys } = await merchant();
      await payNewCard(keys.secretTest, { customerRef: 'cust_gone' });
      const [stored] = (await listCards(keys.secretTest)).body;
      const session = await openSession(sandbox, keys.secretTest, { cardToken: stored.svcToken });
      await seen(sandbox.request('DELETE', `/v1/cards/${stored.svcToken}`, { key: keys.secretTest }));

      const res = await seen(
        sandbox.request('POST', '/v1/checkout/charge', { body: { sessionReference: session.reference, card: { cvv: '123' } }, headers: { 'idempotency-key': randomUUID() } }),
      );

      expectError(res, 409, 'card_unavailable');
      const refused = await seen(sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 100, currency: 'VES', cardToken: stored.svcToken } }));
      expectError(refused, 404, 'resource_missing', 'cardToken');
    });
  });

  describe('DELETE /v1/cards/{svcToken}', () => {
    it('deletes logically: 200 with status deleted, card.deleted once, gone from the list; a repeat returns the same card', async () => {
      const { merchant: m, keys } = await merchant();
      await payNewCard(keys.secretTest, { customerRef: 'cust_del' });
      const [stored] = (await listCards(keys.secretTest)).body;

      const first = await seen(sandbox.request('DELETE', `/v1/cards/${stored.svcToken}`, { key: keys.secretTest }));
      const again = await seen(sandbox.request('DELETE', `/v1/cards/${stored.svcToken}`, { key: keys.secretTest }));

      expect(first.status).toBe(200);
      expect(CardSchema.parse(first.body)).toEqual({ ...stored, status: 'deleted' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect((await listCards(keys.secretTest)).body).toEqual([]);
      const deletions = (await cardEvents(m.id)).filter((e) => e.type === 'card.deleted');
      expect(deletions.map((e) => e.data)).toEqual([{ svcToken: stored.svcToken, brand: 'visa', lastFour: '1111', customerRef: 'cust_del' }]);
      // The record is kept for the transactions that used it.
      expect(await sandbox.deps.cards.get(stored.svcToken)).toMatchObject({ status: 'deleted' });
    });

    it('stores the card again as a new record when the customer pays with it after it was deleted', async () => {
      const { keys } = await merchant();
      await payNewCard(keys.secretTest, { customerRef: 'cust_back' });
      const [old] = (await listCards(keys.secretTest)).body;
      await seen(sandbox.request('DELETE', `/v1/cards/${old.svcToken}`, { key: keys.secretTest }));

      await payNewCard(keys.secretTest, { customerRef: 'cust_back' });

      const now = (await listCards(keys.secretTest)).body;
      expect(now).toHaveLength(1);
      expect(now[0].svcToken).not.toBe(old.svcToken);
    });

    it('answers per role and merchant: read-only key 403, another merchant, the other mode and unknown tokens 404', async () => {
      const { keys } = await merchant();
      const { keys: other } = await merchant();
      await payNewCard(keys.secretTest, { customerRef: 'cust_roles' });
      const [stored] = (await listCards(keys.secretTest)).body;
      const del = (key: string, token = stored.svcToken) => seen(sandbox.request('DELETE', `/v1/cards/${token}`, { key }));

      expectError(await del(keys.restrictedTest), 403, 'insufficient_permissions');
      expectError(await del(other.secretTest), 404, 'resource_missing', 'svcToken');
      expectError(await del(keys.secretLive), 404, 'resource_missing', 'svcToken');
      expectError(await del(keys.secretTest, 'tok_svc_DoesNotExist0000000000'), 404, 'resource_missing', 'svcToken');
      expectError(await del(keys.secretTest, 'card_123'), 400, 'parameter_invalid', 'path.svcToken');
      expectError(await del(keys.publishableTest), 401, 'invalid_api_key');

      expect((await listCards(keys.restrictedTest)).body).toHaveLength(1);
      expect((await listCards(other.secretTest)).body).toEqual([]);
      expect((await listCards(keys.secretLive)).body).toEqual([]);
      expect((await sandbox.deps.cards.get(stored.svcToken))?.status).toBe('active');
    });
  });

  it('counts DELETE /v1/cards in the reads rate class, with GET /v1/cards', async () => {
    const { merchant: m, keys } = await sandbox.newMerchant({ changes: { rateLimits: { reads: { perMinute: 3, perDay: 1000 } } } });
    merchants.push(m.id);
    alignToNextMinute(sandbox);

    const answers = [
      await listCards(keys.secretTest),
      await seen(sandbox.request('DELETE', '/v1/cards/tok_svc_Unknown00000000000000000', { key: keys.secretTest })),
      await seen(sandbox.request('DELETE', '/v1/cards/tok_svc_Unknown00000000000000000', { key: keys.secretTest })),
      await seen(sandbox.request('DELETE', '/v1/cards/tok_svc_Unknown00000000000000000', { key: keys.secretTest })),
    ];

    expect(answers.map((r) => r.status)).toEqual([200, 404, 404, 429]);
    expectRateLimited(answers[3]!);
  });

  it('leaves no card number in clear in any response, DynamoDB item or event of these merchants', async () => {
    const pans = Object.values(TEST_CARDS);
    await sandbox.background.drain();
    const texts: { source: string; text: string }[] = [
      ...responses.map((r, i) => ({ source: `response ${i}`, text: r.text })),
      ...logLines.map((line, i) => ({ source: `log line ${i}`, text: line })),
      ...receiver.received.map((r, i) => ({ source: `webhook ${i}`, text: r.rawBody })),
    ];
    const items = await itemsOfMerchants(merchants);
    for (const item of items) texts.push({ source: `item ${String(item.pk)}`, text: JSON.stringify(item) });
    for (const id of merchants) {
      for (const e of await sandbox.deps.outbox.listForMerchant(id, 'test')) texts.push({ source: `event ${e.envelope.id}`, text: JSON.stringify(e.envelope) });
    }
    const leaks = texts.flatMap(({ source, text }) => pans.filter((pan) => text.includes(pan) || text.includes(pan.replace(/(\d{4})(?=\d)/g, '$1 '))).map(() => source));
    expect(texts.length).toBeGreaterThan(50);
    expect(logLines.some((line) => line.includes('Webhook attempt'))).toBe(true);
    expect(receiver.received.map((r) => JSON.parse(r.rawBody).type)).toContain('card.stored');
    expect(leaks).toEqual([]);
    // The sealed number and the fingerprint live in the table, never in an answer.
    expect(responses.some((r) => /encryptedNumber|vaultRef|fingerprint/.test(r.text))).toBe(false);
    // And no CVV attribute anywhere.
    expect(items.some((item) => JSON.stringify(item).includes('"cvv"'))).toBe(false);
    // Every attempt here ended: none keeps its sealed card, which only the card record holds now.
    const transactions = items.filter((item) => String(item.pk).startsWith('TXN#'));
    expect(transactions.length).toBeGreaterThan(10);
    expect(transactions.filter((item) => 'sealedCard' in item)).toEqual([]);
  });
});
