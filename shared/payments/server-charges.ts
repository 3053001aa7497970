/**
 * Settlement of server-to-server charges (POST /v1/charges): the bank's answer when the charge is sent, or the bank's
 * own record when a read finds it left pending. Such a transaction has no session, so its writes are version-checked
 * on the transaction itself: of two settlements of one charge, one is written and the other answers it.
 */
import { PROCESSOR_CODES } from '../domain/decline-codes.ts';
import type { Merchant } from '../domain/merchant.ts';
import { authenticationExpiredEvent, type StoredCard } from '../domain/stored-card.ts';
import { chargeEvent, resolveTransaction, toMerchantTransaction, traced, type Transaction, type TransactionResult } from '../domain/transaction.ts';
import type { PaymentDeps } from '../deps.ts';
import type { GatewayOutcome } from '../gateways/payment-gateway.ts';
import type { IdempotencyContext } from '../http/handler-types.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { named, TransactionConditionFailedError } from '../store/conditions.ts';
import { outboxPut } from '../store/outbox.ts';
import { chargeEntryItem } from '../store/payment-index.ts';
import { approvedResult, rejection } from './charge-steps.ts';
import { isTransactionConflict } from './session-contention.ts';
import { bankRecord, RECONCILE_AFTER_MS } from './stale-attempts.ts';

/** The answer of POST /v1/charges: 200 with the result, 202 while pending; the transaction plus its svcToken. */
export const serverChargeAnswer = (t: Transaction) => ({ statusCode: t.status === 'pending' ? 202 : 200, body: { ...toMerchantTransaction(t), svcToken: t.svcToken } });

function resultOf(outcome: Exclude<GatewayOutcome, { kind: 'unknown' }>): TransactionResult {
  if (outcome.kind === 'approved') return approvedResult(outcome);
  // Nobody can enter an OTP here: a gateway that asks for one wants the customer, as a soft decline does.
  if (outcome.kind === 'otp_required' || outcome.code === PROCESSOR_CODES.AUTHENTICATION_REQUIRED) {
    return rejection('declined', PROCESSOR_CODES.AUTHENTICATION_REQUIRED, 'The gateway asked for the customer to verify the card again.');
  }
  return rejection(outcome.kind, outcome.code, outcome.detail, outcome.reason);
}

/** A server-to-server charge the bank was asked about but never answered, left long enough to ask for its record. */
export const isStaleServerCharge = (t: Transaction, now: number): boolean =>
  t.sessionReference === null && t.svcToken !== undefined && t.status === 'pending' && now - Date.parse(t.updatedAt) >= RECONCILE_AFTER_MS;

/**
 * Settles a stale server-to-server charge from the bank's own record (the status read the checkout uses; the charge
 * is never sent again). A bank still without an answer, or unreachable, leaves it pending and unwritten. Returns the
 * transaction as it is afterwards.
 */
export async function reconcileServerCharge(deps: PaymentDeps, merchant: Merchant, stored: Transaction): Promise<Transaction> {
  const outcome = await bankRecord(deps, merchant, stored, { transactionReference: stored.reference, sessionReference: stored.reference });
  if (!outcome || outcome.kind === 'unknown') return stored;
  return settleServerCharge(deps, stored, outcome, { reconciled: true });
}

/**
 * Writes the bank's answer over the transaction as it was read (`stored`): the transaction, charge.*, and the stored
 * response when a request with an Idempotency-Key is answering. No answer in time leaves it pending, traced. A
 * gateway that asks for the customer's verification again (soft decline, or an OTP nobody can enter) also marks the
 * card requires_authentication and announces card.authentication_expired, once. A settlement that finds the charge
 * already settled by another answers that one.
 */
export async function settleServerCharge(
  deps: PaymentDeps,
  stored: Transaction,
  outcome: GatewayOutcome,
  { idempotency, reconciled = false }: { idempotency?: IdempotencyContext; reconciled?: boolean } = {},
): Promise<Transaction> {
  const now = deps.clock.now();
  const at = new Date(now).toISOString();
  const asked = reconciled ? traced(stored, 'reconciled', now) : stored;
  const result = outcome.kind === 'unknown' ? null : resultOf(outcome);
  const resolved = result && resolveTransaction(asked, result, now);
  // No answer in time: the charge stays pending, for a later read to settle from the bank's record.
  const settled = resolved ?? traced(asked, 'bank_no_answer', now, outcome.kind === 'unknown' ? outcome.detail : undefined);
  const needsVerification = result?.status === 'declined' && result.errorCode === PROCESSOR_CODES.AUTHENTICATION_REQUIRED;
  let card: StoredCard | null = needsVerification ? await deps.cards.get(stored.svcToken!) : null;
  try {
    await retry(
      policies.settlementContention,
      async () => {
        const items = [named('transaction', deps.transactions.putItem(settled, { replacing: stored })), chargeEntryItem(deps.config.tableName, settled)];
        if (resolved) items.push(outboxPut(deps.config.tableName, stored.merchantId, chargeEvent(resolved, at)));
        if (card && card.gatewayAuthStatus !== 'requires_authentication') {
          const marked: StoredCard = { ...card, gatewayAuthStatus: 'requires_authentication', version: card.version + 1 };
          items.push(named('card', deps.cards.updateItem(marked, card.version)), deps.cards.event(stored.merchantId, authenticationExpiredEvent(marked, stored.reference, at)));
        }
        if (idempotency) items.push(idempotency.commit(serverChargeAnswer(settled)));
        await deps.charges.commit(items);
      },
      {
        // The bank has answered: a card changed meanwhile (a notice, a delete) must not lose that answer. Decide again on it.
        isRetryable: (error) => isTransactionConflict(error) || (error instanceof TransactionConditionFailedError && error.failed === 'card'),
        beforeRetry: async () => {
          if (card) card = await deps.cards.get(card.svcToken);
        },
      },
    );
    return settled;
  } catch (error) {
    if (error instanceof TransactionConditionFailedError && error.failed === 'transaction') return answerSettledMeanwhile(deps, stored, idempotency, error);
    throw error;
  }
}

/** Another request settled the charge first: its result stands, and is this request's answer too. */
async function answerSettledMeanwhile(deps: PaymentDeps, stored: Transaction, idempotency: IdempotencyContext | undefined, lost: Error): Promise<Transaction> {
  const current = await deps.transactions.get(stored.reference);
  if (!current || current.status === 'pending') {
    // Still pending, changed by another request: a read answers it as it is; a charge request fails, changing nothing.
    if (current && !idempotency) return current;
    throw lost;
  }
  if (idempotency) await deps.charges.commit([idempotency.commit(serverChargeAnswer(current))]);
  return current;
}
