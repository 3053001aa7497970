/**
 * Reconciliation of attempts nobody is finishing: the checkout read, the next charge and the timed expiry all settle
 * a stale attempt before acting on its session.
 */
import { SERVICE_CODES } from '../domain/decline-codes.ts';
import type { Merchant } from '../domain/merchant.ts';
import type { Session } from '../domain/session.ts';
import { traced, type Transaction, type TransactionResult } from '../domain/transaction.ts';
import type { PaymentDeps } from '../deps.ts';
import { ConflictError } from '../errors.ts';
import { GatewayUnavailableError, type ChargeReference, type GatewayOutcome } from '../gateways/payment-gateway.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import { bankAccountFor } from './bank-account.ts';
import { commitStep, rejection, resultOf, settlementStep } from './charge-steps.ts';
import { pagoMovilParties } from './pago-movil-charges.ts';
import { p2cSearchDue, searchStep, takeSearch } from './p2c-verification.ts';
import type { AttemptStep } from '../store/charge-store.ts';

/** How long a pending charge is left to the request that sent it before the bank is asked for its status. */
export const RECONCILE_AFTER_MS = 60_000;

/**
 * Settles an attempt nobody will finish: an OTP left unconfirmed past expiresAt ends declined (the code must come
 * before expiry), a charge pending past RECONCILE_AFTER_MS is settled from the bank's own record (a status read,
 * safe to repeat; the charge itself is never sent again), and a P2C reference is searched again once its re-check is
 * due. Returns the session as it is afterwards.
 */
export async function settleStaleAttempt(deps: PaymentDeps, merchant: Merchant, session: Session, now: number): Promise<Session> {
  const pending = session.lastTransaction?.status === 'pending' ? await deps.transactions.get(session.lastTransaction.reference) : null;
  if (!pending) return session;
  let step: AttemptStep | null = null;
  if (session.status === 'otp_requested' && now >= Date.parse(session.expiresAt)) {
    step = settled(session, pending, rejection('declined', SERVICE_CODES.OTP_EXPIRED, 'The OTP was not confirmed before the session expired.'), now);
  } else if (session.status === 'processing' && pending.method === 'pago_movil_p2c') {
    // A P2C reference is searched again when its re-check is due (p2c-verification.ts), by whoever comes first.
    if (p2cSearchDue(pending, now)) {
      const taken = await takeSearch(deps, session, pending, now);
      if (!taken) return (await deps.sessions.get(session.reference)) ?? session;
      step = await searchStep(deps, merchant, taken.after, taken.transaction);
    }
  } else if ((session.status === 'processing' || session.status === 'otp_confirmed') && now - Date.parse(pending.updatedAt) >= RECONCILE_AFTER_MS) {
    const reference = { transactionReference: pending.reference, sessionReference: session.reference, chargedAt: pending.createdAt, pagoMovil: pagoMovilParties(merchant, pending) };
    const outcome = await bankRecord(deps, merchant, pending, reference);
    if (outcome?.kind === 'approved' || outcome?.kind === 'declined' || outcome?.kind === 'failed') step = settled(session, pending, resultOf(outcome), now);
  }
  if (!step) return session;
  try {
    await commitStep(deps, step, null);
    return step.after;
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    return (await deps.sessions.get(session.reference)) ?? session;
  }
}

const settled = (session: Session, pending: Transaction, result: TransactionResult, now: number) => settlementStep(session, traced(pending, 'reconciled', now), result, now);

/**
 * The bank's record of a charge left pending: a status read, safe to repeat (the charge itself is never sent again).
 * No record means the charge never reached the bank: failed, processor_unavailable. Null while the bank or the
 * configuration cannot say, so the charge stays pending, to be asked again. Server-to-server charges are asked the
 * same way (server-charges.ts).
 */
export async function bankRecord(deps: PaymentDeps, merchant: Merchant, charge: Pick<Transaction, 'mode' | 'gateway' | 'currency'>, reference: ChargeReference): Promise<GatewayOutcome | null> {
  try {
    const account = await bankAccountFor(deps, merchant, charge);
    const outcome = await deps.gateways(charge.gateway).chargeStatus(reference, account);
    if (outcome.kind !== 'not_found') return outcome;
    return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: 'The bank has no record of the charge: it never reached it.' };
  } catch (error) {
    if (error instanceof GatewayUnavailableError || error instanceof ConflictError) return null;
    throw error;
  }
}
