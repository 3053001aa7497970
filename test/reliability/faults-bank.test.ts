/**
 * Issue 9.3 (bank): charges under a bank that times out, answers 5xx or reports processor errors, all at once on
 * many sessions. Whatever the mix, no transaction is charged twice at the bank, none stays pending once
 * reconciled, and each session's state agrees with its transactions.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { figureCounter, reportFigures } from '../support/figures.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { SUITE_TIMEOUT_MS } from './suite-limits.ts';

const RUNS = Number(process.env.FAULT_RUNS ?? 6);
const FAULTY_CARDS = ['visa', 'timeout', 'processorError', 'insufficientFunds'] as const;

describe('bank faults mid-charge', { timeout: SUITE_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  const figures = figureCounter('runs', 'charges', 'bankTimeouts', 'bank5xx', 'processorErrors', 'doubleCharges', 'leftPending', 'inconsistentSessions');

  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 300 });
  });
  afterAll(async () => {
    reportFigures('faults-bank', figures);
    await sandbox?.stop();
  });

  it('never charges twice and leaves every transaction reconciled, whatever mix of faults hits parallel charges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...FAULTY_CARDS), { minLength: 3, maxLength: 8 }), fc.nat({ max: 4 }), async (cards, fives) => {
        figures.runs++;
        const { keys } = await sandbox.newMerchant();
        const sessions = await Promise.all(cards.map(() => openSession(sandbox, keys.secretTest, { maxFailures: 3 })));
        sandbox.bank.setFaults({ failNextCharges: fives });
        const answers = await Promise.all(sessions.map((s, i) => checkoutCharge(sandbox, s.reference, { card: card(TEST_CARDS[cards[i]!]) })));
        sandbox.bank.setFaults({ failNextCharges: 0 });
        figures.charges += cards.length;
        figures.bank5xx += Math.min(fives, cards.length);
        figures.bankTimeouts += cards.filter((c) => c === 'timeout').length;
        figures.processorErrors += cards.filter((c) => c === 'processorError').length;
        for (const a of answers) expect([200, 202], a.text).toContain(a.status);

        // Past the reconciliation delay, the checkout page settles what the bank did not answer.
        sandbox.advance(61);
        await Promise.all(sessions.map((s) => sandbox.request('GET', `/v1/checkout/sessions/${s.reference}`)));

        for (const [i, s] of sessions.entries()) {
          const stored = (await sandbox.deps.sessions.get(s.reference))!;
          const references = stored.transactionReferences ?? [];
          const details = await Promise.all(references.map((ref) => sandbox.request('GET', `/v1/transactions/${ref}`, { key: keys.secretTest })));
          const statuses = details.map((d) => d.body.status as string);
          for (const ref of references) {
            const charged = sandbox.bank.calls({ reference: ref, operation: 'charge' }).length;
            if (charged > 1) figures.doubleCharges++;
            expect(charged, `${cards[i]} ${ref}`).toBeLessThanOrEqual(1);
          }
          if (statuses.includes('pending')) figures.leftPending++;
          expect(statuses.every((st) => ['approved', 'declined', 'failed'].includes(st)), `${cards[i]}: ${statuses.join()}`).toBe(true);
          const approved = statuses.filter((st) => st === 'approved').length;
          const consistent = approved <= 1 && (stored.status === 'completed') === (approved === 1);
          if (!consistent) figures.inconsistentSessions++;
          expect(consistent, `${cards[i]}: session ${stored.status}, transactions ${statuses.join()}`).toBe(true);
          // A charge the bank took (the timeout card) is found again by status and approved, unless a 5xx stopped it first.
          for (const d of details) {
            if (cards[i] === 'timeout' && d.body.status === 'failed') expect(d.body.errorCode).toBe('0096');
            if (cards[i] === 'timeout' && d.body.status === 'approved') expect(d.body.trace.map((t: { event: string }) => t.event)).toContain('reconciled');
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
