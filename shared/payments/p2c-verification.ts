/**
 * P2C verification as attempt steps (docs/pago-movil.md, "P2C"): a submitted reference starts a pending attempt
 * that claims the bank payment in the same write, then each search of the bank is one step, decided by decideP2c.
 * The first search is the submitting request's; the re-checks are settleStaleAttempt's (the checkout read, the next
 * request, the timed expiry worker), so there is one path for both.
 */
import { caracasDay, nationalPhone, type BankCode } from '../domain/pago-movil.ts';
import { decideP2c, P2C_CODES, P2C_SEARCHED, p2cCheckAgainAt, p2cSearches, referenceSubmission } from '../domain/pago-movil-verification.ts';
import { decideChargeStart } from '../domain/charge-transitions.ts';
import { SERVICE_CODES } from '../domain/decline-codes.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { PaymentMethodDetails } from '../domain/payment-method.ts';
import { stateOf, type Session } from '../domain/session.ts';
import { newTransaction, traced, type Transaction } from '../domain/transaction.ts';
import type { PartsOf, PaymentDeps } from '../deps.ts';
import { ConflictError, ValidationError } from '../errors.ts';
import type { IncomingPaymentOutcome } from '../gateways/pago-movil-port.ts';
import { GatewayUnavailableError } from '../gateways/payment-gateway.ts';
import type { IdempotencyContext } from '../http/handler-types.ts';
import { prefixedId } from '../ids.ts';
import type { P2cReferenceBody } from '../schemas/checkout-schemas.ts';
import type { AttemptStep } from '../store/charge-store.ts';
import { ConditionFailedError, TransactionConditionFailedError } from '../store/conditions.ts';
import { bankAccountFor } from './bank-account.ts';
import { refuse } from './checkout-session.ts';
import { approvedResult, commitStep, progressStep, rejection, settlementStep, startStep } from './charge-steps.ts';
import { pagoMovilChannel } from './pago-movil-charges.ts';
import { decideOnFreshSession } from './session-contention.ts';

/** A reference as the buyer (or the merchant for them) submits it; the phone already in its national form. */
export interface SubmittedP2c {
  reference: string;
  bankCode: BankCode;
  phone: string;
  paidOn: string;
}

/** The submission of a request its schema checked: the phone in its national form. */
export const submittedP2c = (body: P2cReferenceBody): SubmittedP2c => ({
  reference: body.reference,
  bankCode: body.bankCode as BankCode,
  phone: nationalPhone(body.phone)!,
  paidOn: body.paidOn,
});

/** The Spanish the buyer reads for each P2C ending. */
const REASONS = {
  [P2C_CODES.NOT_FOUND]: 'No encontramos tu pago móvil con esa referencia. Revisa la referencia, el teléfono, el banco y la fecha.',
  [P2C_CODES.AMOUNT_DIFFERS]: 'El monto del pago móvil recibido no coincide con el de la compra. El comercio revisará tu pago.',
  [P2C_CODES.REFERENCE_USED]: 'Esa referencia ya fue usada para pagar otra compra.',
} as const;

const declined = (code: keyof typeof REASONS, detail: string) => rejection('declined', code, detail, REASONS[code]);

/** Whether the session's attempt is a P2C reference the service is still searching for (no read needed). */
export const isVerifying = (session: Session): boolean =>
  session.status === 'processing' && session.lastTransaction?.status === 'pending' && (session.lastTransaction.paymentMethod as PaymentMethodDetails | undefined)?.type === 'pago_movil_p2c';

/**
 * Whether a pending P2C attempt is due its next search. One still pending after its last search (the answer's write
 * was lost) is due at once: searched once more, which ends it.
 */
export function p2cSearchDue(pending: Transaction, now: number): boolean {
  const at = p2cCheckAgainAt(pending.trace);
  return at === null || now >= at;
}

/** Seconds until a pending P2C attempt's next search (at least 1): when the expiry worker comes back to it. */
export function secondsToNextSearch(pending: Transaction, now: number): number {
  const at = p2cCheckAgainAt(pending.trace);
  return Math.max(1, Math.ceil(((at ?? now) - now) / 1000));
}

/** The claim of the bank payment a P2C attempt names: it holds the payment for that session and attempt. */
const claimOf = (t: Transaction) => ({ merchantId: t.merchantId, mode: t.mode, bankCode: t.pagoMovil!.bankCode, reference: t.pagoMovil!.reference! });

/** Asks the bank about the payment; a bank that cannot answer is searched again as "not found yet" is. */
async function search(deps: PaymentDeps, merchant: Merchant, session: Session, pending: Transaction): Promise<IncomingPaymentOutcome> {
  const pagoMovil = deps.gateways(pending.gateway).pagoMovil;
  const payment = pending.pagoMovil!;
  if (!pagoMovil || !merchant.pagoMovil) return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: `${pending.gateway} no longer takes pago móvil for this merchant.` };
  try {
    const account = await bankAccountFor(deps, merchant, pending);
    const query = { reference: payment.reference!, payer: { bankCode: payment.bankCode, phone: payment.phone }, paidOn: payment.paidOn!, amountMinor: session.amountMinor };
    return await pagoMovil.findIncoming(query, merchant.pagoMovil.payee.phone, account);
  } catch (error) {
    if (error instanceof GatewayUnavailableError || error instanceof ConflictError) return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: error.message };
    throw error;
  }
}

/**
 * Takes the next search of a pending P2C attempt: the search is counted in the attempt's trace by a version-checked
 * write before the bank is asked, so of the paths that find it due at the same moment (the checkout read, the expiry
 * worker, more than one of its messages) one asks. Null when another took it.
 */
export async function takeSearch(deps: PaymentDeps, session: Session, pending: Transaction, now: number): Promise<AttemptStep | null> {
  const step = progressStep(session, traced(pending, P2C_SEARCHED, now), session.status);
  try {
    await commitStep(deps, step, null);
    return step;
  } catch (error) {
    if (error instanceof ConditionFailedError) return null;
    throw error;
  }
}

/**
 * The bank's answer to a search already counted in the attempt's trace (takeSearch, or the attempt's start), as the
 * step that records it: approved; declined with another amount (recorded, the claim kept); declined not found after
 * the last re-check (the claim released in the same write); or still pending until the next re-check.
 */
export async function searchStep(deps: PaymentDeps, merchant: Merchant, session: Session, searched: Transaction): Promise<AttemptStep> {
  const result = await search(deps, merchant, session, searched);
  const now = deps.clock.now();
  const release = () => [deps.pagoMovilClaims.releaseItem(claimOf(searched), { sessionReference: session.reference, transactionReference: searched.reference })];
  const decision = decideP2c(result, session.amountMinor, p2cSearches(searched.trace));
  switch (decision.kind) {
    case 'approve':
      // The bank's authorization code, where it answers one, is the merchant's to read.
      const authorizationCode = result.kind === 'found' ? result.authorizationCode : undefined;
      return settlementStep(session, searched, approvedResult({ kind: 'approved', processorReference: decision.processorReference, ...(authorizationCode ? { authorizationCode } : {}) }), now);
    case 'amount_differs': {
      const recorded = { ...searched, pagoMovil: { ...searched.pagoMovil!, amountReceivedMinor: decision.amountReceivedMinor } };
      const detail = `The bank received ${decision.amountReceivedMinor} (minor units) for this reference, not the ${session.amountMinor} asked.`;
      return settlementStep(session, recorded, declined(P2C_CODES.AMOUNT_DIFFERS, detail), now);
    }
    case 'reference_used':
      return { ...settlementStep(session, searched, declined(P2C_CODES.REFERENCE_USED, 'The bank says this payment was already claimed.'), now), items: release() };
    case 'not_found':
      return { ...settlementStep(session, searched, declined(P2C_CODES.NOT_FOUND, 'The bank did not find the payment in any search of the verification window.'), now), items: release() };
    case 'recheck':
      return progressStep(session, traced(searched, 'pago_movil_not_found_yet', now, result.kind === 'failed' ? `${result.code}: ${result.detail}` : undefined), session.status);
  }
}

/**
 * POST .../pago-movil-reference, for the buyer or the merchant: within the session's bound on references, starts the
 * attempt and claims the payment in one write, then searches once. A payment another attempt holds ends the attempt
 * declined without asking the bank. `answerOf` is the route's answer, which a retry with the same key replays.
 */
export async function submitReference<A extends { statusCode: number; body: unknown }>(
  deps: PaymentDeps & PartsOf<'queues'>,
  merchant: Merchant,
  first: Session,
  submitted: SubmittedP2c,
  { now, idempotency, answerOf }: { now: number; idempotency?: IdempotencyContext; answerOf: (step: AttemptStep) => A },
): Promise<A> {
  const channel = await pagoMovilChannel(deps, merchant, first, 'pago_movil_p2c');
  if (submitted.paidOn > caracasDay(new Date(now))) throw new ValidationError('paidOn is after today (Caracas time): give the day the payment was made.', 'paidOn', 'parameter_invalid');
  const started = await decideOnFreshSession(deps, first, async (session) => {
    const decision = decideChargeStart(stateOf(session), now);
    if (decision.kind === 'refuse') refuse(decision.refusal);
    const earlier = await earlierSubmissions(deps, session);
    const bound = referenceSubmission(earlier, submitted);
    if (bound.kind === 'limit_reached') {
      throw new ConflictError('pago_movil_reference_limit', `This session has submitted ${bound.limit} references, its limit. Re-check one of them, or pay in a new session.`);
    }
    const context = { merchantId: session.merchantId, mode: session.mode, sessionReference: session.reference, gateway: channel.gateway, amountMinor: session.amountMinor, currency: session.currency, now, metadata: session.metadata };
    const transaction: Transaction = {
      ...newTransaction({ reference: prefixedId('txn') }, context, null, null),
      method: 'pago_movil_p2c',
      pagoMovil: { bankCode: submitted.bankCode, phone: submitted.phone, reference: submitted.reference, paidOn: submitted.paidOn },
    };
    // The first search is this request's, taken in the start's own write.
    const searched = traced(transaction, P2C_SEARCHED, now);
    const claim = deps.pagoMovilClaims.claimItem({ ...claimOf(transaction), sessionReference: session.reference, transactionReference: transaction.reference, claimedAt: new Date(now).toISOString() });
    try {
      const step = { ...startStep(session, searched), items: [claim] };
      await commitStep(deps, step, null);
      return { kind: 'started' as const, step };
    } catch (error) {
      if (!(error instanceof TransactionConditionFailedError && error.failed === 'pagoMovilClaim')) throw error;
      // Another attempt holds the payment: this one opens and ends in one write, the bank never asked.
      const ending = await heldEnding(deps, session, transaction);
      const step = settlementStep(session, ending.transaction, ending.result, now, { newAttempt: true });
      const answer = answerOf(step);
      await commitStep(deps, step, answer, idempotency);
      return { kind: 'answered' as const, answer };
    }
  });
  if (started.kind === 'answered') return started.answer;
  const step = await searchStep(deps, merchant, started.step.after, started.step.transaction);
  const answer = answerOf(step);
  await commitStep(deps, step, answer, idempotency);
  if (step.transaction.status === 'pending') await queueNextSearch(deps, step.after, step.transaction);
  return answer;
}

/**
 * How an attempt whose payment another attempt holds ends: an earlier attempt of this same session that found it
 * with another amount keeps it (the merchant decides), and a re-check of it reads that amount again; any other holder
 * means the payment paid someone else.
 */
async function heldEnding(deps: PaymentDeps, session: Session, transaction: Transaction) {
  const holder = await deps.pagoMovilClaims.get(claimOf(transaction));
  const earlier = holder?.sessionReference === session.reference ? await deps.transactions.get(holder.transactionReference) : null;
  const received = earlier?.pagoMovil?.amountReceivedMinor;
  if (received === undefined) return { transaction, result: declined(P2C_CODES.REFERENCE_USED, 'Another attempt holds this bank payment.') };
  return {
    transaction: { ...transaction, pagoMovil: { ...transaction.pagoMovil!, amountReceivedMinor: received } },
    result: declined(P2C_CODES.AMOUNT_DIFFERS, `An earlier attempt of this session found this payment with ${received} (minor units), not the ${session.amountMinor} asked.`),
  };
}

/**
 * Hands the next search to the timed expiry worker, which settles an attempt in flight and comes back while it stays
 * so (functions/workers/expire-sessions.ts): the service searches again even when nobody reads the page.
 */
export const queueNextSearch = (deps: PaymentDeps & PartsOf<'queues'>, session: Session, pending: Transaction): Promise<void> =>
  deps.queues.sessionExpiry.send({ reference: session.reference }, { delaySeconds: secondsToNextSearch(pending, deps.clock.now()) });

/** The references this session submitted before, whatever became of them. */
async function earlierSubmissions(deps: PaymentDeps, session: Session) {
  const references = session.transactionReferences ?? [];
  if (references.length === 0) return [];
  const { items } = await deps.transactions.list(session.merchantId, session.mode, { references }, { page: 1, pageSize: references.length });
  return items.flatMap((t) => (t.method === 'pago_movil_p2c' && t.pagoMovil?.reference ? [{ bankCode: t.pagoMovil.bankCode, reference: t.pagoMovil.reference }] : []));
}
