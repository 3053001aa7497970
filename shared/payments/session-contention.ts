/**
 * Requests racing on one session. Every write of an attempt is checked against the session's version, so a request
 * can lose its write to another one any number of times while dozens of tabs or retries hammer one session. A lost
 * write is never an error of the buyer's: the request reads the session again and decides again, until the state
 * machine refuses (409/410) or its own write lands. A 500 would tell the client to retry and an operator to page.
 */
import type { Session } from '../domain/session.ts';
import type { Deps } from '../deps.ts';
import { TransactionConditionFailedError, TransactionConflictError } from '../store/conditions.ts';
import { refuse, requireSession } from './checkout-session.ts';

/**
 * How many lost writes one request absorbs. Each loss but a transaction conflict means another request moved the
 * session, which soon leaves it in a state that refuses the rest; past this many, the session is busy: 409.
 */
export const MAX_LOST_WRITES = 40;

/**
 * How long one request keeps deciding again before answering 409 charge_in_flight: well inside a function's 10 s,
 * since on a loaded machine every round trip of a try is slow too.
 */
export const MAX_CONTENTION_MS = 4_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits before the next try: full jitter over a window that doubles from 4 ms up to 128 ms, so writers that
 * collided (DynamoDB cancels both sides of a transaction conflict) do not collide again in step.
 */
export const backOff = (lost: number): Promise<void> => pause(Math.random() * Math.min(128, 2 ** (lost + 1)));

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
export async function sessionMoved(deps: Deps, read: Session): Promise<boolean> {
  return (await deps.sessions.get(read.reference))?.version !== read.version;
}

/**
 * The write lost to another request on the session (its version check, the first item of every step, failed), to
 * a simultaneous transaction on it, or the session moved under a bank call: decide again on a fresh read.
 */
export const lostSessionWrite = (error: unknown): boolean =>
  isTransactionConflict(error) || error instanceof SessionMovedError || (error instanceof TransactionConditionFailedError && error.index === 0);

/**
 * Runs `act` on the session and, each time its write loses the race, on the session read again. `act` decides from
 * the session it is given (refusing with 409/410 when the state says so), so the loop ends as soon as the outcome is
 * decided; past MAX_LOST_WRITES or MAX_CONTENTION_MS the answer is 409 charge_in_flight.
 *
 * @example
 * return decideOnFreshSession(deps, session, async (current) => {
 *   const decision = decideChargeStart(stateOf(current), now);
 *   if (decision.kind === 'refuse') refuse(decision.refusal);
 *   return commitStep(deps, startStep(current, transaction), null);
 * });
 */
export async function decideOnFreshSession<T>(deps: Deps, first: Session, act: (session: Session) => Promise<T>): Promise<T> {
  const giveUpAt = performance.now() + MAX_CONTENTION_MS;
  let session = first;
  for (let lost = 1; ; lost++) {
    try {
      return await act(session);
    } catch (error) {
      if (!lostSessionWrite(error)) throw error;
      if (lost >= MAX_LOST_WRITES || performance.now() >= giveUpAt) refuse({ status: 409, code: 'charge_in_flight' });
      await backOff(lost);
      session = await requireSession(deps, session.reference);
    }
  }
}
