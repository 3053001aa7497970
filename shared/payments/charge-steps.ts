/**
 * The steps of a checkout charge attempt, each one atomic write: the start, the steps inside it, the settlement,
 * and how a bank outcome becomes one of them. The decisions come from shared/domain (charge-transitions,
 * decline-codes); this module only sequences them.
 */
import { MAX_OTP_ENTRIES, settleAttempt } from '../domain/charge-transitions.ts';
import { cardDeclinesCounter } from '../domain/card-declines.ts';
import { declineReason } from '../domain/decline-codes.ts';
import { p2cCheckAgainAt } from '../domain/pago-movil-verification.ts';
import { buyerTransaction } from '../domain/checkout-view.ts';
import { buildEvent, sessionExpiredEvent, type EventEnvelope } from '../domain/events.ts';
import { stateOf, type Session } from '../domain/session.ts';
import { attemptsRemaining, effectiveState, type SessionStatus } from '../domain/session-state.ts';
import { chargeEvent, resolveTransaction, toTransactionResource, traced, type Transaction, type TransactionResult } from '../domain/transaction.ts';
import type { PaymentDeps } from '../deps.ts';
import type { GatewayOutcome } from '../gateways/payment-gateway.ts';
import type { OtpFactor } from '../domain/otp-factor.ts';
import type { IdempotencyContext } from '../http/handler-types.ts';
import { advanceSession, type AttemptStep } from '../store/charge-store.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { TransactionConditionFailedError } from '../store/conditions.ts';
import { maySealCard, sealedCardExpiry, vaultItems } from './card-vault.ts';
import { isTransactionConflict } from './session-contention.ts';

/** `reason`: the connector's own Spanish text for its network's code; without it, the service's table. */
export const rejection = (status: 'declined' | 'failed', errorCode: string, detail: string, reason?: string): TransactionResult => ({
  status,
  errorCode,
  declineReason: reason ?? declineReason(errorCode, status),
  detail,
});

type FinalOutcome = Extract<GatewayOutcome, { kind: 'approved' | 'declined' | 'failed' }>;

/** The transaction result of a bank outcome that ends the attempt. */
export const resultOf = (outcome: FinalOutcome): TransactionResult =>
  outcome.kind === 'approved' ? approvedResult(outcome) : rejection(outcome.kind, outcome.code, outcome.detail, outcome.reason);

/** An approval with what the network told of the card. */
export const approvedResult = ({ kind: _, ...facts }: Extract<GatewayOutcome, { kind: 'approved' }>): TransactionResult => ({ status: 'approved', ...facts });

/**
 * The session moves to processing and the attempt's transaction is written pending, before the bank is called.
 * `newTransaction` is false when the attempt uses the payment opened with the checkout (USD processor).
 */
export function startStep(before: Session, transaction: Transaction, { newTransaction = true } = {}): AttemptStep {
  return {
    before,
    after: advanceSession(before, { status: 'processing', attemptCount: before.attemptCount + 1, lastTransaction: toTransactionResource(transaction) }),
    transaction,
    newTransaction,
    events: [],
  };
}

/** A step inside an attempt (OTP asked, confirmed, wrong code, bank silent): the session status and the transaction trace. */
export function progressStep(before: Session, transaction: Transaction, status: SessionStatus, events: EventEnvelope[] = []): AttemptStep {
  return { before, after: advanceSession(before, { status, lastTransaction: toTransactionResource(transaction) }), transaction, events };
}

/**
 * The end of an attempt: the transaction resolved, the session settled by the state machine, charge.* announced,
 * and session.expired too when the attempt closes the session. `newAttempt` for an attempt that ends at once
 * (invalid data): opened and settled in the same write, with a new transaction unless it uses an opened payment.
 */
export function settlementStep(
  before: Session,
  transaction: Transaction,
  result: TransactionResult,
  now: number,
  { newAttempt = false, newTransaction = newAttempt }: { newAttempt?: boolean; newTransaction?: boolean } = {},
): AttemptStep {
  const at = new Date(now).toISOString();
  const resolved = resolveTransaction(transaction, result, now);
  const settled = settleAttempt(stateOf(before), result.status, now);
  const after = advanceSession(before, {
    status: settled.status,
    closedReason: settled.closedReason,
    failureCount: settled.failureCount,
    closedAt: settled.closedReason ? at : before.closedAt,
    attemptCount: before.attemptCount + (newAttempt ? 1 : 0),
    lastTransaction: toTransactionResource(resolved),
  });
  const events: EventEnvelope[] = [chargeEvent(resolved, at)];
  if (settled.closedReason) events.push(sessionExpiredEvent(after, settled.closedReason, at));
  return { before, after, transaction: resolved, newTransaction, events };
}

export interface ChargeAnswer {
  statusCode: number;
  body: {
    transaction: ReturnType<typeof toTransactionResource>;
    session: { reference: string; status: SessionStatus; closedReason: Session['closedReason']; attemptsRemaining: number | null; returnUrl: string | null };
    nextAction: { type: 'otp'; entriesRemaining: number; factor: OtpFactor | null } | { type: 'pago_movil_verifying'; checkAgainAt: string } | null;
  };
}

/**
 * What the buyer's page does next: the code step awaited, with the entries left and what the bank asks for (null: a
 * code it sent); or wait while the service searches for a P2C payment again by itself, at checkAgainAt.
 */
export function nextAction(session: Session, transaction: Transaction): ChargeAnswer['body']['nextAction'] {
  if (session.status === 'otp_requested') return { type: 'otp', entriesRemaining: MAX_OTP_ENTRIES - transaction.otpFailures, factor: transaction.otpFactor ?? null };
  const checkAgainAt = transaction.method === 'pago_movil_p2c' && transaction.status === 'pending' ? p2cCheckAgainAt(transaction.trace) : null;
  return checkAgainAt === null ? null : { type: 'pago_movil_verifying', checkAgainAt: new Date(checkAgainAt).toISOString() };
}

/** The checkout's answer: 200 once the attempt has a result (approved, declined or failed alike), 202 while it is pending. */
export function chargeAnswer(session: Session, transaction: Transaction, now: number): ChargeAnswer {
  const { status, closedReason } = effectiveState(stateOf(session), now);
  return {
    statusCode: transaction.status === 'pending' ? 202 : 200,
    body: {
      // The buyer's browser reads this answer: a generic decline, the bank's code stays with the merchant.
      transaction: buyerTransaction(toTransactionResource(transaction), session.gateway),
      session: { reference: session.reference, status, closedReason, attemptsRemaining: attemptsRemaining(session), returnUrl: session.returnUrl },
      nextAction: nextAction(session, transaction),
    },
  };
}

/**
 * Writes a step and, in the same transaction, the answer a retry with the same Idempotency-Key will replay. An
 * approval on a session with a customerRef also stores the card (record, match, card.stored); an ended attempt
 * drops its sealed card, as does a step marked `sealedCard: 'drop'` (card-vault.ts says who seals and why). Losing
 * the card's match to a simultaneous approval of the same card means it is stored now: the step is written again,
 * reusing that card. A transaction conflict (another request's write on one of these items at that instant, even
 * one that then fails) wrote nothing: the step is sent again. A lost version check on the session is the caller's to
 * decide (session-contention.ts). A live decline counts against its card (card-declines.ts) in the same
 * transaction, and the ended attempt drops the card's key with its sealed card.
 */
export async function commitStep(deps: PaymentDeps, step: AttemptStep, answer: { statusCode: number; body: unknown } | null, idempotency?: IdempotencyContext): Promise<void> {
  const { sealedCard: carried, cardKey, ...ended } = step.transaction;
  const pending = step.transaction.status === 'pending';
  const written: AttemptStep = pending ? step : { ...step, transaction: ended };
  const reference = ended.reference;
  const storesCard = ended.status === 'approved' && step.after.customerRef && !step.after.cardToken ? { ...step.after, customerRef: step.after.customerRef } : null;
  // An approval in a later request than the seal finds the number in its own item.
  const sealedCard = carried ?? (storesCard ? await deps.transactions.sealedCard(reference) : null);
  const sealedItems =
    pending && step.sealedCard === 'store' && carried
      ? [deps.transactions.sealedCardItem(reference, carried, sealedCardExpiry(step.after))]
      : (!pending || step.sealedCard === 'drop') && maySealCard(step.after)
        ? [deps.transactions.dropSealedCardItem(reference)]
        : [];
  await retry(
    policies.transactionContention,
    async () => {
      const items = [...deps.charges.stepItems(written), ...sealedItems];
      if (storesCard && sealedCard) items.push(...(await vaultItems(deps, storesCard, ended, sealedCard, deps.clock.now())));
      if (cardKey && ended.status === 'declined') items.push(deps.rateLimits.countItem(ended.merchantId, cardDeclinesCounter(cardKey), deps.clock.now()));
      if (idempotency && answer) items.push(idempotency.commit(answer));
      await deps.charges.commit(items);
    },
    { isRetryable: (error) => isTransactionConflict(error) || (error instanceof TransactionConditionFailedError && error.failed === 'cardMatch') },
  );
}

/** What the bank's outcome does to a session whose charge was in flight, written as one step. */
/** `dropSealedCard`: the attempt no longer needs its sealed number, even while its outcome is unknown. */
export async function applyOutcome(
  deps: PaymentDeps,
  before: Session,
  transaction: Transaction,
  outcome: GatewayOutcome,
  idempotency?: IdempotencyContext,
  { dropSealedCard = false } = {},
): Promise<ChargeAnswer> {
  // Read after the bank answered: a rejection arriving after expiresAt closes the session.
  const now = deps.clock.now();
  let step: AttemptStep;
  switch (outcome.kind) {
    case 'otp_required':
      step = progressStep(before, { ...traced(transaction, 'otp_requested', now), ...(outcome.factor ? { otpFactor: outcome.factor } : {}) }, 'otp_requested', [
        buildEvent('session.otp_requested', before.mode, new Date(now).toISOString(), { sessionReference: before.reference, transactionReference: transaction.reference }),
      ]);
      // The number sealed for the code step (card-vault.ts sealForCode) is written with the request for the code.
      if (transaction.sealedCard) step.sealedCard = 'store';
      break;
    case 'unknown':
      // No answer: the charge stays in flight and pending; settleStaleAttempt asks the bank later.
      step = progressStep(before, traced(transaction, 'bank_no_answer', now, outcome.detail), before.status);
      if (dropSealedCard) step.sealedCard = 'drop';
      break;
    default:
      step = settlementStep(before, transaction, resultOf(outcome), now);
  }
  const answer = chargeAnswer(step.after, step.transaction, now);
  await commitStep(deps, step, answer, idempotency);
  return answer;
}
