import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OTP_ENTRIES } from '../../shared/domain/charge-transitions.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';

/**
 * Issue 33, finding 1: each OTP entry is reserved with one conditional write before the bank sees its code, so of
 * any number of parallel entries at most MAX_OTP_ENTRIES per attempt reach the bank.
 */
describe('OTP entries in parallel', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const PARALLEL = 30;
  const RIGHT = '123456';

  const otpAttempt = async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { maxFailures: 3 });
    const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.otp) });
    expect(charged.status).toBe(202);
    return { session: session.reference, transaction: charged.body.transaction.reference as string };
  };
  const enter = (attempt: { session: string; transaction: string }, code: string) =>
    sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference: attempt.session, transactionReference: attempt.transaction, code } });
  const codeChecks = (transaction: string) => sandbox.bank.calls({ reference: transaction, operation: 'otp' });
  const tally = (answers: TestResponse[]) => JSON.stringify(answers.map((a) => `${a.status} ${a.body?.code ?? a.body?.transaction?.status ?? ''}`));

  /**
   * Only documented answers: the attempt's result (200), a wrong code (422), a refusal of the state (409), or the
   * session's budget of checkout calls (429: 30 entries at once are more than its minute takes).
   */
  const expectDocumented = (answers: TestResponse[]) => {
    for (const a of answers) expect([200, 409, 422, 429], tally(answers)).toContain(a.status);
    for (const a of answers.filter((a) => a.status === 429)) expect(a.body.code).toBe('rate_limited');
    for (const a of answers.filter((a) => a.status === 409)) expect(['charge_in_flight', 'otp_not_requested', 'session_completed'], tally(answers)).toContain(a.body.code);
    for (const a of answers.filter((a) => a.status === 422)) expect(a.body.code).toBe('otp_invalid');
  };

  it(`lets at most ${MAX_OTP_ENTRIES} of ${PARALLEL} parallel wrong codes reach the bank, and ends the attempt declined`, async () => {
    const attempt = await otpAttempt();
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => enter(attempt, '000000')));

    expectDocumented(answers);
    expect(codeChecks(attempt.transaction).length, tally(answers)).toBeLessThanOrEqual(MAX_OTP_ENTRIES);
    expect(answers.filter((a) => a.status === 422).length + answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(MAX_OTP_ENTRIES);
    // The right code afterwards (past the session's minute of calls) finds the attempt over: nothing reaches the bank.
    sandbox.advance(60);
    const late = await enter(attempt, RIGHT);
    expect(late.status, late.text).toBe(409);
    expect(late.body.code).toBe('otp_not_requested');
    expect(codeChecks(attempt.transaction).length).toBeLessThanOrEqual(MAX_OTP_ENTRIES);
    expect(sandbox.bank.calls({ reference: attempt.transaction, operation: 'authorize' })).toEqual([]);
  });

  it(`approves the right code among ${PARALLEL - 1} parallel wrong ones only when it was among the first ${MAX_OTP_ENTRIES} entries reserved`, async () => {
    for (let round = 0; round < 3; round++) {
      const attempt = await otpAttempt();
      const position = 7 * round + 3;
      const answers = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => enter(attempt, i === position ? RIGHT : '000000')));

      expectDocumented(answers);
      const checked = codeChecks(attempt.transaction);
      expect(checked.length, tally(answers)).toBeLessThanOrEqual(MAX_OTP_ENTRIES);
      const approved = answers[position]!.status === 200 && answers[position]!.body.transaction.status === 'approved';
      // The bank saw the right code exactly when it was approved: only a reserved entry is ever checked.
      const rightChecked = sandbox.bank.calls({ reference: attempt.transaction, operation: 'authorize' }).length === 1;
      expect(approved, tally(answers)).toBe(rightChecked);
      for (const [i, a] of answers.entries()) if (i !== position) expect(a.status === 200 && a.body.transaction.status === 'approved').toBe(false);
    }
  });

  it('refuses a code for a closed attempt without asking the bank', async () => {
    const attempt = await otpAttempt();
    for (const code of ['111111', '222222', '333333']) await enter(attempt, code);
    const after = await enter(attempt, RIGHT);
    expect(after.status).toBe(409);
    expect(after.body.code).toBe('otp_not_requested');
    expect(codeChecks(attempt.transaction)).toHaveLength(MAX_OTP_ENTRIES);
  });
});
