/**
 * Requests racing on one session. Every write of an attempt is checked against the session's version, so a request
 * can lose its write to another one any number of times while dozens of tabs or retries hammer one session. A lost
 * write is never an error of the buyer's: the request reads the session again and decides again, until the state
 * machine refuses (409/410) or its own write lands. A 500 would tell the client to retry and an operator to page.
 */
import type { Session } from '../domain/session.ts';
import type { PaymentDeps } from '../deps.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { TransactionConditionFailedError, TransactionConflictError } from '../store/conditions.ts';
import { refuse, requireSession } from './checkout-session.ts';

/** A transaction conflict: nothing was written, and the same write may simply be sent again. */
export const isTransactionConflict = (error: unknown): error is TransactionConflictError => error instanceof TransactionConflictError;

/** Another request moved the session while this one was asking the bank: what the bank said no longer applies. */
export class SessionMovedError extends Error {
  constructor() {
    super('The session changed while the bank was asked');
    this.name = 'SessionMovedError';
  }
}

/** Whether the stored session is no longer the version this request read. */
export async function sessionMoved(deps: PaymentDeps, read: Session): Promise<boolean> {
  return (await deps.sessions.get(read.reference))?.version !== read.version;
}

/**
 * The write lost to another request on the session (its version check, named 'session' in every step, failed), to
 * a simultaneous transaction on it, or the session moved under a bank call: decide again on a fresh read.
 */
export const lostSessionWrite = (error: unknown): boolean =>
  isTransactionConflict(error) || error instanceof SessionMovedError || (error instanceof TransactionConditionFailedError && error.failed === 'session');

/**
 * Runs `act` on the session and, each time its write loses the race, on the session read again. `act` decides from
 * the session it is given (refusing with 409/410 when the state says so), so the loop ends as soon as the outcome is
 * decided; once the transactionContention policy's tries or time are spent the answer is 409 charge_in_flight.
 *
 * @example
 * return decideOnFreshSession(deps, session, async (current) => {
 *   const decision = decideChargeStart(stateOf(current), now);
 *   if (decision.kind === 'refuse') refuse(decision.refusal);
 *   return commitStep(deps, startStep(current, transaction), null);
 * });
 */
export async function decideOnFreshSession<T>(deps: PaymentDeps, first: Session, act: (session: Session) => Promise<T>): Promise<T> {
  let session = first;
  return retry(policies.transactionContention, () => act(session), {
    isRetryable: lostSessionWrite,
    beforeRetry: async () => {
      session = await requireSession(deps, session.reference);
    },
    onExhausted: () => refuse({ status: 409, code: 'charge_in_flight' }),
  });
}
