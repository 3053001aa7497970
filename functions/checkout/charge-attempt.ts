/**
 * The steps of a checkout charge attempt, shared by the charge, OTP and checkout-read handlers: which bank account
 * a session charges, how a bank outcome becomes one atomic write, and how a stale attempt is settled.
 * The decisions come from shared/domain (charge-transitions, decline-codes); this module only sequences them.
 */
import { bankCredentialsContext } from '../../shared/admin/bank-credentials.ts';
import { MAX_OTP_ENTRIES, settleAttempt, type ChargeRefusal } from '../../shared/domain/charge-transitions.ts';
import { declineReason, SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { buildEvent, sessionExpiredEvent, type EventEnvelope } from '../../shared/domain/events.ts';
import { gatewayModeConflict, type Merchant } from '../../shared/domain/merchant.ts';
import { stateOf, type Session } from '../../shared/domain/session.ts';
import { attemptsRemaining, effectiveState, type SessionStatus } from '../../shared/domain/session-state.ts';
import { chargeEvent, newTransaction, resolveTransaction, toTransactionResource, traced, type Transaction, type TransactionResult } from '../../shared/domain/transaction.ts';
import { prefixedId } from '../../shared/ids.ts';
import type { AuthContext } from '../../shared/auth/authenticator.ts';
import type { Deps } from '../../shared/deps.ts';
import { ConflictError, GoneError, NotFoundError } from '../../shared/errors.ts';
import { GatewayUnavailableError, type BankAccount, type GatewayOutcome } from '../../shared/gateways/payment-gateway.ts';
import type { IdempotencyContext } from '../../shared/http/api-types.ts';
import { advanceSession, type AttemptStep } from '../../shared/store/charge-store.ts';
import { ConditionFailedError, TransactionConditionFailedError, TransactionConflictError } from '../../shared/store/conditions.ts';
import { vaultItems } from './card-vault.ts';

const REFUSAL_MESSAGES: Record<ChargeRefusal['code'], string> = {
  session_completed: 'This session is already paid. A new payment needs a new session.',
  attempts_exhausted: 'This session has no attempts left (maxFailures reached). A new payment needs a new session.',
  charge_in_flight: 'A charge is already in progress on this session. Wait for its result before trying again.',
  otp_not_requested: 'This session is not waiting for an OTP.',
  session_expired: 'This session has expired. A new payment needs a new session.',
};

/** 410 for sessions closed by time or by the merchant, 409 for the rest: none of these is an attempt. */
export function refuse(refusal: ChargeRefusal): never {
  const message = REFUSAL_MESSAGES[refusal.code];
  throw refusal.status === 410 ? new GoneError(refusal.code, message) : new ConflictError(refusal.code, message);
}

/** A lost race (another request changed the session first) is decided again on a fresh read, this many times. */
export const MAX_RACES = 3;

/** The session the checkout authentication read: the handler starts from it instead of reading it again. */
export function checkoutSession(auth: AuthContext): Session {
  if (!auth.session) throw new Error('checkout route without the session of its authentication');
  return auth.session;
}

export async function requireSession(deps: Deps, reference: string): Promise<Session> {
  const session = await deps.sessions.get(reference);
  if (!session) throw new NotFoundError('session', 'sessionReference');
  return session;
}

/**
 * Test sessions charge the bank's test environment; live ones need the merchant's loaded credentials and never
 * fall back to the test environment. Refusals here are 409s that never become attempts.
 */
export async function bankAccountFor(deps: Deps, merchant: Merchant, session: Pick<Session, 'mode' | 'gateway' | 'currency'>): Promise<BankAccount> {
  const conflict = gatewayModeConflict(merchant, session.mode, session.gateway, session.currency);
  if (conflict) throw new ConflictError(conflict.code, conflict.message);
  if (session.mode === 'test') return { environment: 'test', credentials: null };
  const ciphertext = merchant.credentialsLoaded[session.gateway] ? await deps.merchants.getCredentials(merchant.id, session.gateway) : null;
  if (!ciphertext) {
    throw new ConflictError(
      'bank_credentials_missing',
      `No live bank credentials are loaded for the ${session.gateway} gateway, so live charges cannot be made yet. Live charges never fall back to the test environment.`,
    );
  }
  const credentials = await deps.secretBox.decrypt(ciphertext, bankCredentialsContext(merchant.id, session.gateway));
  // The banks take the credentials object as issued, base64url-encoded, as a bearer token.
  return { environment: 'live', credentials: Buffer.from(credentials).toString('base64url') };
}

export const rejection = (status: 'declined' | 'failed', errorCode: string, detail: string): TransactionResult => ({
  status,
  errorCode,
  declineReason: declineReason(errorCode, status),
  detail,
});

type FinalOutcome = Extract<GatewayOutcome, { kind: 'approved' | 'declined' | 'failed' }>;

const resultOf = (outcome: FinalOutcome): TransactionResult =>
  outcome.kind === 'approved' ? { status: 'approved', processorReference: outcome.processorReference } : rejection(outcome.kind, outcome.code, outcome.detail);

const iso = (ms: number) => new Date(ms).toISOString();

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
  const at = iso(now);
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
    nextAction: { type: 'otp'; entriesRemaining: number } | null;
  };
}

/** 200 once the attempt has a result (approved, declined or failed alike), 202 while it is pending. */
export function chargeAnswer(session: Session, transaction: Transaction, now: number): ChargeAnswer {
  const { status, closedReason } = effectiveState(stateOf(session), now);
  return {
    statusCode: transaction.status === 'pending' ? 202 : 200,
    body: {
      transaction: toTransactionResource(transaction),
      session: { reference: session.reference, status, closedReason, attemptsRemaining: attemptsRemaining(session), returnUrl: session.returnUrl },
      nextAction: session.status === 'otp_requested' ? { type: 'otp', entriesRemaining: MAX_OTP_ENTRIES - transaction.otpFailures } : null,
    },
  };
}

/**
 * Writes a step and, in the same transaction, the answer a retry with the same Idempotency-Key will replay. An
 * approval on a session with a customerRef also stores the card (record, match, card.stored); an ended attempt
 * drops its sealed card. Losing the card's match to a simultaneous approval of the same card means it is stored
 * now: the step is written again, reusing that card.
 */
export async function commitStep(deps: Deps, step: AttemptStep, answer: { statusCode: number; body: unknown } | null, idempotency?: IdempotencyContext): Promise<void> {
  const { sealedCard, ...ended } = step.transaction;
  const written: AttemptStep = step.transaction.status === 'pending' ? step : { ...step, transaction: ended };
  const storesCard = sealedCard && ended.status === 'approved' && step.after.customerRef ? { ...step.after, customerRef: step.after.customerRef } : null;
  for (let race = 1; ; race++) {
    const items = deps.charges.stepItems(written);
    const firstVaultItem = items.length;
    const vault = storesCard ? await vaultItems(deps, storesCard, ended, sealedCard!, deps.clock.now()) : [];
    items.push(...vault);
    if (idempotency && answer) items.push(idempotency.commit(answer));
    try {
      await deps.charges.commit(items);
      return;
    } catch (error) {
      const lostCardRace = error instanceof TransactionConflictError || (error instanceof TransactionConditionFailedError && error.index === firstVaultItem);
      if (vault.length === 0 || !lostCardRace || race >= MAX_RACES) throw error;
    }
  }
}

/** What the bank's outcome does to a session whose charge was in flight, written as one step. */
export async function applyOutcome(deps: Deps, before: Session, transaction: Transaction, outcome: GatewayOutcome, idempotency?: IdempotencyContext): Promise<ChargeAnswer> {
  // Read after the bank answered: a rejection arriving after expiresAt closes the session.
  const now = deps.clock.now();
  let step: AttemptStep;
  switch (outcome.kind) {
    case 'otp_required':
      step = progressStep(before, traced(transaction, 'otp_requested', now), 'otp_requested', [
        buildEvent('session.otp_requested', before.mode, iso(now), { sessionReference: before.reference, transactionReference: transaction.reference }),
      ]);
      break;
    case 'unknown':
      // No answer: the charge stays in flight and pending; settleStaleAttempt asks the bank later.
      step = progressStep(before, traced(transaction, 'bank_no_answer', now, outcome.detail), before.status);
      break;
    default:
      step = settlementStep(before, transaction, resultOf(outcome), now);
  }
  const answer = chargeAnswer(step.after, step.transaction, now);
  await commitStep(deps, step, answer, idempotency);
  return answer;
}

/** How long a pending charge is left to the request that sent it before the bank is asked for its status. */
export const RECONCILE_AFTER_MS = 60_000;

/**
 * Settles an attempt nobody will finish: an OTP left unconfirmed past expiresAt ends declined (the code must come
 * before expiry), and a charge pending past RECONCILE_AFTER_MS is settled from the bank's own record (a status
 * read, safe to repeat; the charge itself is never sent again). Returns the session as it is afterwards.
 */
export async function settleStaleAttempt(deps: Deps, merchant: Merchant, session: Session, now: number): Promise<Session> {
  const pending = session.lastTransaction?.status === 'pending' ? await deps.transactions.get(session.lastTransaction.reference) : null;
  if (!pending) return session;
  let result: TransactionResult | null = null;
  if (session.status === 'otp_requested' && now >= Date.parse(session.expiresAt)) {
    result = rejection('declined', SERVICE_CODES.OTP_EXPIRED, 'The OTP was not confirmed before the session expired.');
  } else if ((session.status === 'processing' || session.status === 'otp_confirmed') && now - Date.parse(pending.updatedAt) >= RECONCILE_AFTER_MS) {
    result = await bankRecord(deps, merchant, session, pending);
  }
  if (!result) return session;
  const step = settlementStep(session, traced(pending, 'reconciled', now), result, now);
  try {
    await commitStep(deps, step, null);
    return step.after;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    return (await deps.sessions.get(session.reference)) ?? session;
  }
}

async function bankRecord(deps: Deps, merchant: Merchant, session: Session, pending: Transaction): Promise<TransactionResult | null> {
  try {
    const account = await bankAccountFor(deps, merchant, session);
    const outcome = await deps.gateways(session.gateway).chargeStatus({ transactionReference: pending.reference, sessionReference: session.reference }, account);
    if (outcome.kind === 'not_found') return rejection('failed', SERVICE_CODES.PROCESSOR_UNAVAILABLE, 'The bank has no record of the charge: it never reached it.');
    return outcome.kind === 'approved' || outcome.kind === 'declined' || outcome.kind === 'failed' ? resultOf(outcome) : null;
  } catch (error) {
    // The bank or the configuration cannot say yet: the attempt stays pending, to be asked again.
    if (error instanceof GatewayUnavailableError || error instanceof ConflictError) return null;
    throw error;
  }
}

/** The pending transaction of a USD payment opened with the checkout and not charged yet, which the next attempt uses. */
export async function openedPayment(deps: Deps, session: Session): Promise<Transaction | null> {
  if (session.status !== 'created' || session.lastTransaction?.status !== 'pending') return null;
  return deps.transactions.get(session.lastTransaction.reference);
}

/**
 * USD processor sessions: the buyer opening the checkout creates the pending payment at the processor (keyed by the
 * session), recorded as a pending transaction without a card. Not an attempt. Where it cannot be opened now
 * (processor down, no credentials), the page still shows and the first charge opens it.
 */
export async function openProcessorPayment(deps: Deps, merchant: Merchant, session: Session, now: number): Promise<Session> {
  const gateway = deps.gateways(session.gateway);
  if (!gateway.openPayment || session.status !== 'created' || session.lastTransaction || now >= Date.parse(session.expiresAt)) return session;
  try {
    const account = await bankAccountFor(deps, merchant, session);
    const status = await gateway.openPayment({ sessionReference: session.reference, amountMinor: session.amountMinor, currency: session.currency }, account);
    if (status !== 'pending') return session;
    const context = { merchantId: session.merchantId, mode: session.mode, sessionReference: session.reference, gateway: session.gateway, amountMinor: session.amountMinor, currency: session.currency, now };
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
