/**
 * The pending payment of a USD processor session: opened at the processor when the buyer opens the checkout, used
 * by the next attempt, cancelled at the processor when the session closes.
 */
import { SERVICE_CODES } from '../domain/decline-codes.ts';
import { sessionExpiredEvent } from '../domain/events.ts';
import type { Merchant } from '../domain/merchant.ts';
import { PROCESSOR_OPEN_BUDGET, PROCESSOR_OPEN_COUNTER } from '../domain/rate-limits.ts';
import type { Session } from '../domain/session.ts';
import type { ClosedReason } from '../domain/session-state.ts';
import { chargeEvent, newTransaction, resolveTransaction, toTransactionResource, traced, type Transaction } from '../domain/transaction.ts';
import type { PaymentDeps } from '../deps.ts';
import { ApiError, ConflictError } from '../errors.ts';
import { GatewayUnavailableError } from '../gateways/payment-gateway.ts';
import { prefixedId } from '../ids.ts';
import { advanceSession, type AttemptStep } from '../store/charge-store.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import { bankAccountFor } from './bank-account.ts';
import { commitStep, rejection } from './charge-steps.ts';

/** The pending transaction of a USD payment opened with the checkout and not charged yet, which the next attempt uses. */
export async function openedPayment(deps: PaymentDeps, session: Session): Promise<Transaction | null> {
  if (session.status !== 'created' || session.lastTransaction?.status !== 'pending') return null;
  return deps.transactions.get(session.lastTransaction.reference);
}

/**
 * USD processor sessions: the buyer opening the checkout creates the pending payment at the processor (keyed by the
 * session), recorded as a pending transaction without a card. Not an attempt. Where it cannot be opened now
 * (processor down, no credentials, the session's open budget spent), the page still shows and the first charge
 * opens it. The read needs only the cs_ reference, so each try at the processor is counted against the session's
 * PROCESSOR_OPEN_BUDGET first: a link's holder cannot make us call the processor on every read.
 */
export async function openProcessorPayment(deps: PaymentDeps, merchant: Merchant, session: Session, now: number): Promise<Session> {
  const gateway = deps.gateways(session.gateway);
  if (!gateway.openPayment || session.status !== 'created' || session.lastTransaction || now >= Date.parse(session.expiresAt)) return session;
  try {
    const account = await bankAccountFor(deps, merchant, session);
    if (!(await deps.rateLimits.consume(session.reference, PROCESSOR_OPEN_COUNTER, PROCESSOR_OPEN_BUDGET, now)).allowed) return session;
    const status = await gateway.openPayment({ sessionReference: session.reference, amountMinor: session.amountMinor, currency: session.currency }, account);
    if (status !== 'pending') return session;
    const context = { merchantId: session.merchantId, mode: session.mode, sessionReference: session.reference, gateway: session.gateway, amountMinor: session.amountMinor, currency: session.currency, now, metadata: session.metadata };
    const transaction = traced(newTransaction({ reference: prefixedId('txn') }, context, null, null), 'payment_opened', now);
    const step: AttemptStep = { before: session, after: advanceSession(session, { lastTransaction: toTransactionResource(transaction) }), transaction, newTransaction: true, events: [] };
    await commitStep(deps, step, null);
    return step.after;
  } catch (error) {
    if (error instanceof ConflictError || error instanceof GatewayUnavailableError) return session;
    if (error instanceof ConditionFailedError) return (await deps.sessions.get(session.reference)) ?? session;
    throw error;
  }
}

/**
 * Closing a USD processor session: its pending payment is cancelled at the processor first. If the processor cannot
 * cancel, 503 and nothing changes; if it had already charged, 409. A payment the buyer had opened becomes a failed
 * transaction (charge.failed) in the same write that closes the session; it is not a failure of the buyer.
 */
export async function closeWithProcessor(deps: PaymentDeps, merchant: Merchant, session: Session, reason: ClosedReason, now: number): Promise<Session> {
  const gateway = deps.gateways(session.gateway);
  const account = await bankAccountFor(deps, merchant, session).catch((error: unknown) => {
    // Without credentials no payment can have been opened at the processor: there is nothing to cancel.
    if (error instanceof ConflictError) return null;
    throw error;
  });
  if (account && gateway.cancelPayment) {
    const payment = { sessionReference: session.reference, amountMinor: session.amountMinor, currency: session.currency };
    const verdict = await gateway.cancelPayment(session.reference, account, payment).catch((error: unknown) => {
      if (error instanceof GatewayUnavailableError) {
        throw new ApiError(503, 'processor_cancellation_failed', 'The pending payment could not be cancelled at the processor; nothing was changed. Retry shortly.', { cause: error });
      }
      throw error;
    });
    if (verdict === 'already_charged') {
      throw new ConflictError('processor_already_charged', 'The external processor has already charged this payment; the session cannot be expired.');
    }
  }

  const at = new Date(now).toISOString();
  const opened = await openedPayment(deps, session);
  if (!opened) return deps.sessions.close(session, reason, at, sessionExpiredEvent(session, reason, at));
  const cancelled = resolveTransaction(
    traced(opened, 'payment_cancelled', now),
    rejection('failed', SERVICE_CODES.PAYMENT_CANCELLED, `The session was closed (${reason}); the pending payment was cancelled at the processor.`),
    now,
  );
  const after = advanceSession(session, { status: 'expired', closedReason: reason, closedAt: at, lastTransaction: toTransactionResource(cancelled) });
  await commitStep(deps, { before: session, after, transaction: cancelled, events: [chargeEvent(cancelled, at), sessionExpiredEvent(after, reason, at)] }, null);
  return after;
}
