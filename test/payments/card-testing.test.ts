import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { CARD_DECLINES_PER_DAY } from '../../shared/domain/card-declines.ts';
import { DEFAULT_SESSION_FAILURES } from '../../shared/domain/charge-transitions.ts';
import { declineReason, GENERIC_DECLINE_REASON } from '../../shared/domain/decline-codes.ts';
import { card, checkoutCharge, eventsOf, openSession, TEST_CARDS } from '../support/checkout.ts';
import { expectRefused } from './support/answers.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** A Luhn-valid Visa number the sandbox bank declines with 0005 (do not honor): "any other valid number". */
function declinedCard(n: number): string {
  const body = `4000123${String(n).padStart(8, '0')}`;
  for (let check = 0; check <= 9; check++) {
    const digits = `${body}${check}`;
    const sum = [...digits].reverse().reduce((acc, d, i) => {
      const v = Number(d) * (i % 2 === 1 ? 2 : 1);
      return acc + (v > 9 ? v - 9 : v);
    }, 0);
    if (sum % 10 === 0) return digits;
  }
  throw new Error('unreachable');
}

const bankCharges = (sandbox: TestSandbox, reference: string) => sandbox.bank.calls({ reference, operation: 'charge' }).length;

/**
 * Issue 21, finding 6: card testing. A session without maxFailures took any number of cards, without a key, and told
 * the caller the bank's exact code. Now: a bounded default per session, a bound per card across the merchant's
 * sessions (through the card vault's keyed fingerprint), and the buyer sees a generic decline while the merchant
 * keeps the bank's code.
 */
describe('Card testing through the checkout', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  /** A merchant taking live charges on the direct bank: the per-card bound counts live declines only. */
  async function liveMerchant() {
    const created = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, created.merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'direct-key' }));
    return created;
  }

  it(`closes a session without maxFailures at its ${DEFAULT_SESSION_FAILURES}th failure: of 12 different cards only ${DEFAULT_SESSION_FAILURES} reach the bank`, async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    expect(session.attemptsRemaining).toBeNull();

    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await checkoutCharge(sandbox, session.reference, { card: card(declinedCard(i)) }));

    const processed = answers.filter((a) => a.status === 200);
    expect(processed).toHaveLength(DEFAULT_SESSION_FAILURES);
    for (const a of processed) {
      expect(a.body.transaction.status).toBe('declined');
      expect(a.body.session.attemptsRemaining).toBeNull();
      expect(bankCharges(sandbox, a.body.transaction.reference)).toBe(1);
    }
    expect(processed.at(-1)!.body.session).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached' });
    for (const a of answers.slice(DEFAULT_SESSION_FAILURES)) expectRefused(a, 409, 'attempts_exhausted');

    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached', maxFailures: null, attemptsRemaining: null, attemptCount: DEFAULT_SESSION_FAILURES });
    const expired = (await eventsOf(sandbox, merchant.id, 'test', session.reference)).filter((e) => e.type === 'session.expired');
    expect(expired.map((e) => e.data)).toEqual([expect.objectContaining({ reason: 'max_failures_reached', failureCount: DEFAULT_SESSION_FAILURES, maxFailures: null })]);
  });

  it('warns the buyer when one attempt of the default remains, while attemptsRemaining stays null', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    for (let i = 0; i < DEFAULT_SESSION_FAILURES - 1; i++) {
      expect((await checkoutCharge(sandbox, session.reference, { card: card(declinedCard(100 + i)) })).status).toBe(200);
    }
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(page.body).toMatchObject({ status: 'failed', attemptsRemaining: null, lastAttemptWarning: true });
    expect((await checkoutCharge(sandbox, session.reference)).body.transaction.status).toBe('approved');
  });

  it('lets maxFailures override the default: maxFailures 8 takes 9 attempts', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 8 });
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await checkoutCharge(sandbox, session.reference, { card: card(declinedCard(200 + i)) }));
    expect(answers.map((a) => a.status)).toEqual([...Array(9).fill(200), 409]);
    expect(answers[8]!.body.session).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached', attemptsRemaining: 0 });
  });

  it(`refuses a card declined ${CARD_DECLINES_PER_DAY} times at a merchant today on any of its live sessions, whatever the expiry, without asking the bank; other merchants and test mode are untouched`, async () => {
    const { keys } = await liveMerchant();
    const number = TEST_CARDS.insufficientFunds;
    for (let i = 0; i < CARD_DECLINES_PER_DAY; i++) {
      const session = await openSession(sandbox, keys.secretLive);
      const declined = await checkoutCharge(sandbox, session.reference, { card: card(number, { expMonth: 1 + i }) });
      expect(declined.body.transaction.status).toBe('declined');
      expect(bankCharges(sandbox, declined.body.transaction.reference)).toBe(1);
    }

    const session = await openSession(sandbox, keys.secretLive);
    const refused = await checkoutCharge(sandbox, session.reference, { card: card(number, { expYear: 2031 }) });
    expect(refused.status).toBe(200);
    // Insufficient funds is told (finding 8 of round 4); the refusal by the per-card bound reads the generic sentence.
    expect(refused.body.transaction).toMatchObject({ status: 'declined', errorCode: 'card_declined', declineReason: GENERIC_DECLINE_REASON });
    expect(bankCharges(sandbox, refused.body.transaction.reference)).toBe(0);
    const detail = await sandbox.request('GET', `/v1/transactions/${refused.body.transaction.reference}`, { key: keys.secretLive });
    expect(detail.body).toMatchObject({ status: 'declined', errorCode: 'card_declines_exceeded' });
    // The same session still takes another card: the refusal was one failure of it.
    expect((await checkoutCharge(sandbox, session.reference)).body.transaction.status).toBe('approved');

    const inTest = await checkoutCharge(sandbox, (await openSession(sandbox, keys.secretTest)).reference, { card: card(number) });
    expect(bankCharges(sandbox, inTest.body.transaction.reference)).toBe(1);
    const { keys: other } = await liveMerchant();
    const elsewhere = await checkoutCharge(sandbox, (await openSession(sandbox, other.secretLive)).reference, { card: card(number) });
    expect(elsewhere.body.transaction.errorCode).toBe('card_declined');
    expect(bankCharges(sandbox, elsewhere.body.transaction.reference)).toBe(1);
  });

  it('keys the per-card count with the card vault\'s fingerprint: no item holds the number or an unkeyed hash of it', async () => {
    const { merchant, keys } = await liveMerchant();
    const number = declinedCard(300);
    await checkoutCharge(sandbox, (await openSession(sandbox, keys.secretLive)).reference, { card: card(number) });
    const unkeyed = ['sha1', 'sha256', 'md5'].map((algorithm) => createHash(algorithm).update(number).digest('hex'));
    const items = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await sandbox.deps.db.send(new ScanCommand({ TableName: sandbox.deps.config.tableName, ExclusiveStartKey }));
      items.push(...(page.Items ?? []).filter((item) => JSON.stringify(item).includes(merchant.id)));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    const counters = items.filter((item) => String(item.pk).startsWith(`RATE#${merchant.id}#card_declines`));
    expect(counters).toHaveLength(1);
    const text = JSON.stringify(items);
    expect(text).not.toContain(number);
    for (const hash of unkeyed) expect(text.toLowerCase()).not.toContain(hash);
  });

  it('tells the buyer what they can fix and nothing that helps a card tester, and the merchant the bank\'s code, in the answer, the checkout page, the session, the transaction and the webhook event', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    for (const [number, overrides, code, buyerReason] of [
      [TEST_CARDS.insufficientFunds, {}, '0051', 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.'],
      [TEST_CARDS.wrongCvv, {}, '0082', 'El código de seguridad (CVV) no es correcto. Revísalo e inténtalo de nuevo.'],
      [TEST_CARDS.visa, { expMonth: 1, expYear: 2020 }, '0120', 'La tarjeta está vencida. Prueba con otra tarjeta.'],
      [TEST_CARDS.lostCard, {}, '0041', GENERIC_DECLINE_REASON],
      [TEST_CARDS.stolenCard, {}, '0043', GENERIC_DECLINE_REASON],
      [declinedCard(400), {}, '0005', GENERIC_DECLINE_REASON],
    ] as const) {
      const session = await openSession(sandbox, keys.secretTest);
      const answer = await checkoutCharge(sandbox, session.reference, { card: card(number, overrides) });
      expect(answer.body.transaction, number).toMatchObject({ status: 'declined', errorCode: 'card_declined', declineReason: buyerReason });
      const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
      expect(page.body.lastTransaction).toMatchObject({ errorCode: 'card_declined', declineReason: buyerReason });

      const reference = answer.body.transaction.reference;
      const detail = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest });
      expect(detail.body.errorCode).toBe(code);
      expect(detail.body.declineReason).toBe(declineReason(code, 'declined'));
      const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
      expect(read.body.lastTransaction).toMatchObject({ errorCode: code });
      const event = (await eventsOf(sandbox, merchant.id, 'test', session.reference)).find((e) => e.type === 'charge.declined')!;
      expect(event.data).toMatchObject({ errorCode: code, declineReason: detail.body.declineReason });
    }
  });

  it('keeps the processor-error card\'s retry message for the buyer, without the bank\'s code', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const answer = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.processorError) });
    expect(answer.body.transaction).toMatchObject({
      status: 'failed',
      errorCode: 'processing_error',
      declineReason: 'No pudimos procesar el pago en este momento. Inténtalo de nuevo en unos minutos.',
    });
    const detail = await sandbox.request('GET', `/v1/transactions/${answer.body.transaction.reference}`, { key: keys.secretTest });
    expect(detail.body.errorCode).toBe('0096');
  });
});
