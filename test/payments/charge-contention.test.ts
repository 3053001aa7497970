/**
 * Issue 17 findings 1 and 6: parallel charges on one session, each with its own Idempotency-Key, must answer the
 * documented 409/410 however many conditional writes they lose, never a 500; and every attempt the service accepts
 * reaches the bank exactly once (counted at the sandbox bank, not inferred from our answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OTP_ENTRIES } from '../../shared/domain/charge-transitions.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import { otpMerchant, payWithOtp, serverCharge, storedCard } from '../support/stored-card-charges.ts';

const CLIENTS = 20;
const ROUNDS = 5;
/** Answers of requests that never became an attempt: the documented 409s, and the session's own budget (finding 5 of issue 21). */
const REFUSALS: Record<string, number> = { charge_in_flight: 409, session_completed: 409, attempts_exhausted: 409, rate_limited: 429 };

const tally = (answers: TestResponse[]) => JSON.stringify(answers.map((a) => `${a.status} ${a.body?.code ?? a.body?.transaction?.status ?? ''}`).sort());

describe('charges racing on one session', { timeout: 240_000 }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    // One charge first, as on a running sandbox: the race measures contention, not a cold start on a loaded machine.
    const { keys } = await sandbox.newMerchant();
    await checkoutCharge(sandbox, (await openSession(sandbox, keys.secretTest)).reference);
  });
  afterAll(() => sandbox?.stop());

  /** Fires CLIENTS charges at once and checks the answers against what the bank saw and the session became. */
  async function race(sessionReference: string, number: string) {
    const earlier = new Set((await sandbox.deps.sessions.get(sessionReference))!.transactionReferences ?? []);
    const answers = await Promise.all(Array.from({ length: CLIENTS }, () => checkoutCharge(sandbox, sessionReference, { card: card(number) })));
    expect(answers.filter((a) => a.status >= 500), tally(answers)).toEqual([]);
    const attempts = answers.filter((a) => a.status === 200);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status, tally(answers)).toBe(REFUSALS[refused.body.code]);
    }
    const session = (await sandbox.deps.sessions.get(sessionReference))!;
    const atBank = sandbox.bank.calls({ operation: 'charge' }).filter((c) => session.transactionReferences!.includes(c.reference) && !earlier.has(c.reference));
    // One bank call per accepted attempt, and the transaction each answer names is the one the bank charged.
    expect(atBank.map((c) => c.reference).sort()).toEqual(attempts.map((a) => a.body.transaction.reference).sort());
    return { answers, attempts, session, atBank };
  }

  it(`answers ${CLIENTS} simultaneous charges with one charge at the bank and 409s, ${ROUNDS} rounds`, async () => {
    const { keys } = await sandbox.newMerchant();
    for (let round = 0; round < ROUNDS; round++) {
      const session = await openSession(sandbox, keys.secretTest);
      const { attempts, session: after } = await race(session.reference, TEST_CARDS.visa);
      expect(attempts).toHaveLength(1);
      expect(after).toMatchObject({ status: 'completed', attemptCount: 1 });
    }
  });

  it(`answers ${CLIENTS} simultaneous retries after a decline without a 500, ${ROUNDS} rounds`, async () => {
    const { keys } = await sandbox.newMerchant();
    for (let round = 0; round < ROUNDS; round++) {
      const session = await openSession(sandbox, keys.secretTest);
      const declined = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });
      expect(declined.body.transaction.status).toBe('declined');
      // Declining cards: a request that lost the race may start the next attempt once the first has settled.
      const { attempts, session: after } = await race(session.reference, TEST_CARDS.insufficientFunds);
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(after.attemptCount).toBe(1 + attempts.length);
      expect(after.failureCount).toBe(1 + attempts.length);
    }
  });

  it(`never lets more attempts than maxFailures allows through ${CLIENTS} simultaneous declines, ${ROUNDS} rounds`, async () => {
    const { keys } = await sandbox.newMerchant();
    for (let round = 0; round < ROUNDS; round++) {
      const session = await openSession(sandbox, keys.secretTest, { maxFailures: 1 });
      const { attempts, session: after } = await race(session.reference, TEST_CARDS.insufficientFunds);
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(attempts.length).toBeLessThanOrEqual(2);
      expect(after.attemptCount).toBe(attempts.length);
      if (attempts.length === 2) expect(after).toMatchObject({ status: 'expired', closedReason: 'max_failures_reached' });
    }
  });

  it(`answers ${CLIENTS} simultaneous OTP entries (right and wrong codes) without a 500, ${ROUNDS} rounds`, async () => {
    const { keys } = await sandbox.newMerchant();
    for (let round = 0; round < ROUNDS; round++) {
      const session = await openSession(sandbox, keys.secretTest);
      const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.otp) });
      expect(charged.status).toBe(202);
      const transactionReference = charged.body.transaction.reference;
      const answers = await Promise.all(
        Array.from({ length: CLIENTS }, (_, i) =>
          sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference: session.reference, transactionReference, code: i % 4 === 0 ? '123456' : '000000' } }),
        ),
      );
      expect(answers.filter((a) => a.status >= 500), tally(answers)).toEqual([]);
      // 429: the charge and 20 entries are one more than the session's minute of checkout calls.
      for (const a of answers) expect([200, 409, 422, 429], tally(answers)).toContain(a.status);
      for (const a of answers.filter((a) => a.status === 409)) expect(['charge_in_flight', 'session_completed', 'otp_not_requested']).toContain(a.body.code);
      expect(sandbox.bank.calls({ operation: 'otp', reference: transactionReference }).length).toBeLessThanOrEqual(MAX_OTP_ENTRIES);
      const approved = answers.filter((a) => a.status === 200 && a.body.transaction.status === 'approved');
      expect(approved.length).toBeLessThanOrEqual(1);
      // The charge is authorised at the bank once exactly when an answer says approved.
      expect(sandbox.bank.calls({ operation: 'authorize' }).filter((c) => c.reference === transactionReference)).toHaveLength(approved.length);
    }
  });

  it(`answers ${CLIENTS} simultaneous server-to-server charges of one stored card without a 500`, async () => {
    const { keys } = await otpMerchant(sandbox);
    await payWithOtp(sandbox, keys.secretLive, 'cus_race');
    const { svcToken } = await storedCard(sandbox, keys.secretLive, 'cus_race');
    const answers = await Promise.all(Array.from({ length: CLIENTS }, () => serverCharge(sandbox, keys.secretLive, { svcToken })));
    expect(answers.filter((a) => a.status >= 500), tally(answers)).toEqual([]);
    for (const a of answers.filter((a) => a.status === 200)) {
      expect(sandbox.bank.calls({ operation: 'charge' }).filter((c) => c.reference === a.body.reference)).toHaveLength(1);
    }
  });
});
