import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCharge, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('concurrent charges on one session', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('lets exactly one of 20 simultaneous charges reach the bank; the others get 409', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);

    const answers = await Promise.all(Array.from({ length: 20 }, () => checkoutCharge(sandbox, session.reference)));

    const approved = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    expect(approved).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(['charge_in_flight', 'session_completed']).toContain(r.body.code);
    // The bank serves only this file's sandbox: every charge it ever received is this session's one charge.
    expect(sandbox.bank.calls({ operation: 'charge' })).toEqual([
      { gateway: 'bank_direct', environment: 'test', operation: 'charge', reference: approved[0]!.body.transaction.reference },
    ]);
    expect(await sandbox.deps.sessions.get(session.reference)).toMatchObject({
      status: 'completed',
      attemptCount: 1,
      transactionReferences: [approved[0]!.body.transaction.reference],
    });
  });
});
