/**
 * The steps of a refund: the reservation (the refund written pending and its amount taken from what remains of the
 * transaction, before the bank is called), the bank call (a void where the gateway cancels a same-day charge), and the
 * settlement (the refund, the transaction's running sums, the event and the stored answer in one write). A refund
 * whose answer never came is settled later from the bank's record, when a read finds it (reconcileRefunds); it is
 * never sent twice, since our refund reference is the bank's idempotency key. The rules are in shared/domain/refund.ts.
 */
import { createHash } from 'node:crypto';
import type { Merchant } from '../domain/merchant.ts';
import {
  afterRefund,
  decideRefund,
  newRefund,
  REFUND_SERVICE_CODES,
  refundedMinor,
  refundEvent,
  resolveRefund,
  toRefundResource,
  type Refund,
  type RefundMethod,
  type RefundResult,
} from '../domain/refund.ts';
import type { TraceEntry, Transaction } from '../domain/transaction.ts';
import type { PaymentDeps } from '../deps.ts';
import { ConflictError, ValidationError } from '../errors.ts';
import { GatewayUnavailableError, type BankAccount, type RefundOutcome, type RefundRequest } from '../gateways/payment-gateway.ts';
import type { IdempotencyContext } from '../http/handler-types.ts';
import type { CreateRefundBody } from '../schemas/refund-schemas.ts';
import { randomToken } from '../ids.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { ConditionFailedError, TransactionConditionFailedError } from '../store/conditions.ts';
import { IDEMPOTENCY_RETENTION_MS, type IdempotencyScope } from '../store/idempotency-store.ts';
import { outboxPut } from '../store/outbox.ts';
import { bankAccountFor } from './bank-account.ts';
import { pagoMovilParties } from './pago-movil-charges.ts';
import { RECONCILE_AFTER_MS } from './stale-attempts.ts';

/** 200 once the refund has a result (succeeded or failed), 202 while it is pending. */
export const refundAnswer = (refund: Refund) => ({ statusCode: refund.status === 'pending' ? 202 : 200, body: toRefundResource(refund) });

/** The reference a refund under this Idempotency-Key scope gets (a retry after a crash finds its refund again). */
const keyedReference = (scope: IdempotencyScope): string => `ref_${createHash('sha256').update(`refund\n${JSON.stringify(scope)}`).digest('hex').slice(0, 32)}`;

const entry = (at: string, event: string, detail: string): TraceEntry => ({ at, event, detail });

const conflict = () =>
  new ConflictError('refund_conflict', 'Other refunds of this transaction were being recorded at the same moment. Retry with the same Idempotency-Key.', { 'Retry-After': '1' });

/**
 * POST /v1/transactions/{reference}/refunds after validation: the refund of this request's key if it exists (a retry
 * after a crash asks the bank again under the same reference, which the bank deduplicates), else a new one reserved,
 * sent and settled; an external one (method external) is recorded, with no bank. Refusals (not approved, more than
 * remains, no live credentials) change nothing.
 */
export async function createRefund(
  deps: PaymentDeps,
  merchant: Merchant,
  transaction: Transaction,
  body: CreateRefundBody,
  idempotency: IdempotencyContext,
  now: number,
): Promise<Refund> {
  const derived = keyedReference(idempotency.claim.scope);
  const earlier = await deps.refunds.get(transaction.reference, derived);
  if (earlier && (earlier.status === 'pending' || now - Date.parse(earlier.createdAt) < IDEMPOTENCY_RETENTION_MS)) {
    if (earlier.status === 'pending') return sendAndSettle(deps, merchant, transaction, earlier, await bankAccountFor(deps, merchant, transaction), idempotency);
    await deps.charges.commit([idempotency.commit(refundAnswer(earlier))]);
    return earlier;
  }
  // Settled before this key's 24 h: it belongs to an older request whose key has expired since. This is a new refund.
  const reference = earlier ? `ref_${randomToken()}` : derived;
  // No money moves and no bank is asked: no credentials needed.
  if (body.method === 'external') return recordExternal(deps, transaction, reference, body, idempotency, now);
  // Asked before anything is written: a merchant without live credentials (or test mode) is refused with no trace.
  const account = await bankAccountFor(deps, merchant, transaction);
  const refund = await reserve(deps, transaction, reference, body, now);
  return sendAndSettle(deps, merchant, transaction, refund, account, idempotency);
}

/**
 * Takes the amount from what remains, deciding again on a fresh read when a parallel refund wrote first (the
 * refundRace policy); past its tries, 409 refund_conflict.
 */
function reserve(deps: PaymentDeps, transaction: Transaction, reference: string, body: CreateRefundBody, now: number): Promise<Refund> {
  return decideAndWrite(deps, transaction, body, now, async (current, decision) => {
    const refund = newRefund(reference, current, decision, body.reason ?? null, now);
    const requested = entry(refund.createdAt, 'refund_requested', `${refund.reference}: ${refund.amountMinor} ${refund.currency}${refund.method === 'void' ? ' (void)' : ''}`);
    await deps.charges.commit(deps.refunds.reserveItems(current, refund, requested));
    return refund;
  });
}

/**
 * An external refund: written succeeded at once with the transaction's sums, charge.refunded and the stored answer,
 * in one write (no bank, so nothing is left pending), under the same race rules as a reservation.
 */
function recordExternal(deps: PaymentDeps, transaction: Transaction, reference: string, body: CreateRefundBody, idempotency: IdempotencyContext, now: number): Promise<Refund> {
  return decideAndWrite(deps, transaction, body, now, async (current, decision) => {
    const refund: Refund = { ...newRefund(reference, current, decision, body.reason ?? null, now, { channel: body.external!.channel, reference: body.external!.reference ?? null }), status: 'succeeded' };
    const recorded = entry(refund.createdAt, 'refund_recorded', `${refund.reference}: ${refund.amountMinor} ${refund.currency} returned by the merchant (${refund.external!.channel}), no money moved`);
    const totals = afterRefund(current, refund.amountMinor);
    await deps.charges.commit([
      ...deps.refunds.recordItems(current, refund, recorded),
      outboxPut(deps.config.tableName, current.merchantId, refundEvent(refund, { ...current, status: totals.status }, totals.amountRefundedMinor, refund.createdAt)),
      idempotency.commit(refundAnswer(refund)),
    ]);
    return refund;
  });
}

/** Decides on the transaction and writes, deciding again on a fresh read when a parallel refund wrote first. */
async function decideAndWrite(
  deps: PaymentDeps,
  transaction: Transaction,
  body: CreateRefundBody,
  now: number,
  write: (current: Transaction, decision: { amountMinor: number; method: RefundMethod }) => Promise<Refund>,
): Promise<Refund> {
  let current = transaction;
  return retry(
    policies.refundRace,
    async () => {
      const decision = decideRefund(current, body.amountMinor, now, body.method === 'external');
      if (decision.kind === 'refused') {
        throw decision.status === 400 ? new ValidationError(decision.message, 'amountMinor', decision.code) : new ConflictError(decision.code, decision.message);
      }
      return write(current, decision);
    },
    {
      isRetryable: (error) => error instanceof ConditionFailedError,
      beforeRetry: async () => {
        current = (await deps.transactions.get(current.reference)) ?? current;
      },
      onExhausted: () => {
        throw conflict();
      },
    },
  );
}

const refundRequest = (merchant: Merchant, t: Transaction, refund: Refund): RefundRequest => ({
  transactionReference: t.reference,
  // Server-to-server charges have no session: the processor's payment is keyed by the transaction itself.
  sessionReference: t.sessionReference ?? t.reference,
  refundReference: refund.reference,
  amountMinor: refund.amountMinor,
  currency: refund.currency,
  processorReference: t.processorReference,
  refundedAt: refund.createdAt,
  pagoMovil: pagoMovilParties(merchant, t),
});

/** A void where the refund plans one and the gateway still can; otherwise (or when the charge settled meanwhile) a refund. */
async function sendToBank(deps: PaymentDeps, merchant: Merchant, t: Transaction, refund: Refund, account: BankAccount): Promise<{ outcome: RefundOutcome; method: RefundMethod }> {
  const gateway = deps.gateways(t.gateway);
  const request = refundRequest(merchant, t, refund);
  if (refund.method === 'void' && gateway.voidCharge) {
    const voided = await gateway.voidCharge(request, account);
    if (voided.kind !== 'not_voidable') return { outcome: voided, method: 'void' };
  }
  return { outcome: await gateway.refund(request, account), method: 'refund' };
}

async function sendAndSettle(deps: PaymentDeps, merchant: Merchant, t: Transaction, refund: Refund, account: BankAccount, idempotency: IdempotencyContext): Promise<Refund> {
  const { outcome, method } = await sendToBank(deps, merchant, t, refund, account);
  return settleRefund(deps, { ...refund, method }, outcome, { idempotency });
}

const resultOf = (outcome: RefundOutcome): RefundResult | null => {
  if (outcome.kind === 'succeeded') return { status: 'succeeded', processorReference: outcome.processorReference };
  if (outcome.kind === 'failed') return { status: 'failed', errorCode: outcome.code, detail: outcome.detail };
  return null;
};

function outcomeEntry(refund: Refund, outcome: RefundOutcome, at: string): TraceEntry {
  switch (outcome.kind) {
    case 'succeeded':
      return entry(at, 'refund_succeeded', `${refund.reference}: ${refund.amountMinor} ${refund.currency}${refund.method === 'void' ? ' (void)' : ''}`);
    case 'failed':
      return entry(at, 'refund_failed', `${refund.reference}: ${outcome.code}: ${outcome.detail}`);
    case 'pending':
      return entry(at, 'refund_pending', `${refund.reference}: accepted by the bank, paid out when it settles`);
    case 'unknown':
      return entry(at, 'refund_no_answer', `${refund.reference}: ${outcome.detail}`);
  }
}

/**
 * Writes the bank's answer over the refund, which must still be pending: the refund, the transaction's sums and trace,
 * charge.refunded or charge.refund_failed, and the stored answer. A pending or unknown answer leaves it pending,
 * traced. If another request (a read reconciling it) settled it first, that result is this request's answer too.
 */
export async function settleRefund(deps: PaymentDeps, refund: Refund, outcome: RefundOutcome, { idempotency, reconciled = false }: { idempotency?: IdempotencyContext; reconciled?: boolean } = {}): Promise<Refund> {
  const result = resultOf(outcome);
  const settled = await retry(
    policies.refundRace,
    async (): Promise<{ refund: Refund; byAnother: boolean }> => {
      const now = deps.clock.now();
      const at = new Date(now).toISOString();
      const transaction = await deps.transactions.get(refund.transactionReference);
      if (!transaction) throw new Error(`Transaction ${refund.transactionReference} of refund ${refund.reference} is missing`);
      const after = result ? resolveRefund(refund, result, now) : { ...refund, updatedAt: at };
      const entries = [...(reconciled ? [entry(at, 'refund_reconciled', `${refund.reference}: from the bank's record`)] : []), outcomeEntry(after, outcome, at)];
      const items = deps.refunds.settleItems(after, transaction, entries);
      if (result) {
        const totals = after.status === 'succeeded' ? afterRefund(transaction, after.amountMinor) : { amountRefundedMinor: refundedMinor(transaction), status: transaction.status };
        items.push(outboxPut(deps.config.tableName, transaction.merchantId, refundEvent(after, { ...transaction, status: totals.status }, totals.amountRefundedMinor, at)));
      }
      if (idempotency) items.push(idempotency.commit(refundAnswer(after)));
      try {
        await deps.charges.commit(items);
        return { refund: after, byAnother: false };
      } catch (error) {
        if (error instanceof TransactionConditionFailedError && error.failed === 'refund') {
          const current = await deps.refunds.get(refund.transactionReference, refund.reference);
          if (current && current.status !== 'pending') return { refund: current, byAnother: true };
        }
        throw error;
      }
    },
    {
      isRetryable: (error) => error instanceof ConditionFailedError,
      // The bank has answered; its record stays. A refund still unwritten after the races is settled by a later read.
      onExhausted: () => ({ refund, byAnother: false }),
    },
  );
  if (settled.byAnother && idempotency) await deps.charges.commit([idempotency.commit(refundAnswer(settled.refund))]);
  return settled.refund;
}

/**
 * The bank's record of a refund left pending: a status read, safe to repeat. No record means the refund never
 * reached the bank: failed, processor_unavailable (its amount is given back). Null while the bank cannot say.
 */
async function refundRecord(deps: PaymentDeps, merchant: Merchant, t: Transaction, refund: Refund): Promise<RefundOutcome | null> {
  try {
    const account = await bankAccountFor(deps, merchant, t);
    const outcome = await deps.gateways(t.gateway).refundStatus(refundRequest(merchant, t, refund), account);
    if (outcome.kind !== 'not_found') return outcome;
    return { kind: 'failed', code: REFUND_SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: 'The bank has no record of the refund: it never reached it.' };
  } catch (error) {
    if (error instanceof GatewayUnavailableError || error instanceof ConflictError) return null;
    throw error;
  }
}

/**
 * A transaction's refunds, oldest first, with those left pending past RECONCILE_AFTER_MS settled from the bank's
 * record first (a refund the bank never answered in time, or one the bank holds until it settles); the transaction
 * is read again when one was settled. A bank still pending, silent or unreachable leaves the refund as it is.
 *
 * @example
 * const { transaction, refunds } = await refundsOf(deps, req.auth.merchant, stored, req.now);
 */
export async function refundsOf(deps: PaymentDeps, merchant: Merchant, transaction: Transaction, now: number): Promise<{ transaction: Transaction; refunds: Refund[] }> {
  const refunds = await deps.refunds.list(transaction.reference);
  let settled = false;
  for (const [i, refund] of refunds.entries()) {
    if (refund.status !== 'pending' || now - Date.parse(refund.updatedAt) < RECONCILE_AFTER_MS) continue;
    const outcome = await refundRecord(deps, merchant, transaction, refund);
    if (!outcome || !resultOf(outcome)) continue;
    refunds[i] = await settleRefund(deps, refund, outcome, { reconciled: true });
    settled = true;
  }
  // Read again also when a refund changed after the transaction was read: another request settled it meanwhile
  // (its sums and the refund are written together), so the transaction in hand predates the refunds listed.
  const outdated = settled || refunds.some((refund) => refund.updatedAt > transaction.updatedAt);
  const current = outdated ? ((await deps.transactions.get(transaction.reference)) ?? transaction) : transaction;
  return { transaction: current, refunds };
}
