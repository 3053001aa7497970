import { createHash } from 'node:crypto';
import type { Deps } from '../../shared/deps.ts';
import { PROCESSOR_CODES } from '../../shared/domain/decline-codes.ts';
import { GATEWAYS, gatewayModeConflict, type Merchant } from '../../shared/domain/merchant.ts';
import { authenticationExpiredEvent, cardNumberContext, type StoredCard } from '../../shared/domain/stored-card.ts';
import { chargeEvent, newTransaction, resolveTransaction, toTransactionResource, traced, type Transaction, type TransactionResult } from '../../shared/domain/transaction.ts';
import type { Mode } from '../../shared/domain/session-state.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { GatewayOutcome } from '../../shared/gateways/payment-gateway.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import type { ApiRequest, IdempotencyContext } from '../../shared/http/api-types.ts';
import { prefixedId } from '../../shared/ids.ts';
import { CreateChargeBodySchema, type CreateChargeBody } from '../../shared/schemas/card-schemas.ts';
import { TransactionSchema } from '../../shared/schemas/transaction-schemas.ts';
import type { IdempotencyScope } from '../../shared/store/idempotency-store.ts';
import { outboxPut } from '../../shared/store/outbox.ts';
import { TransactionConditionFailedError, TransactionConflictError } from '../../shared/store/conditions.ts';
import { bankAccountFor } from '../../shared/payments/bank-account.ts';
import { MAX_RACES, rejection } from '../../shared/payments/charge-steps.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

/**
 * POST /v1/charges: a stored card charged by the merchant's server, without the customer, on a gateway that needs
 * no CVV. Its transaction has no session (sessionReference null; its charge.* events name the svcToken instead).
 * The transaction is written pending before the bank is called, so a crash leaves a record to reconcile, and the
 * result, its event and the stored answer go in one transaction.
 */
export const { build, handler, schemas, parts } = defineApiHandler(
  'createCharge',
  {
    body: CreateChargeBodySchema,
    responses: {
      success: { 200: TransactionSchema, 202: TransactionSchema },
      errors: {
        404: 'resource_missing: svcToken is not an active card of this merchant and mode.',
        409: 'test_mode_off, test_mode_unsupported, card_flow_unsupported (the card needs its CVV: use a session with cardToken), customer_mismatch, authentication_required (the customer must pay once with the card), bank_credentials_missing.',
      },
    },
  },
  async (req, deps) => {
    const { merchant, mode } = req.auth;
    const gatewayOfCurrency = merchant.gateways[req.body.currency];
    const conflict = gatewayModeConflict(merchant, mode, gatewayOfCurrency, req.body.currency);
    if (conflict) throw new ConflictError(conflict.code, conflict.message);
    const card = await chargeableCard(deps, merchant, mode, req.body);
    const account = await bankAccountFor(deps, merchant, { mode, gateway: card.gateway, currency: req.body.currency });

    // Opened before anything is written: a card that cannot be opened changes nothing.
    const number = await deps.secretBox.decrypt(card.encryptedNumber, cardNumberContext(card.merchantId, card.vaultRef));
    const pending = await pendingTransaction(deps, req, card);
    const outcome = await deps.gateways(card.gateway).charge(
      {
        transactionReference: pending.reference,
        sessionReference: pending.reference,
        amountMinor: pending.amountMinor,
        currency: pending.currency,
        payment: { card: { number, expMonth: card.expMonth, expYear: card.expYear, cvv: '', holderName: card.holderName ?? '' }, document: pending.document },
        merchantInitiated: true,
      },
      account,
    );
    return settle(deps, card, pending, outcome, req.idempotency);
  },
  { parts: [cryptoFromEnvironment, gatewaysFromEnvironment] },
);

/** The reference a charge under this Idempotency-Key scope gets, unless an older settled charge already has it. */
export const chargeReference = (scope: IdempotencyScope): string => `txn_${createHash('sha256').update(JSON.stringify(scope)).digest('hex').slice(0, 32)}`;

/**
 * The charge's pending transaction, written before the bank is called. Its reference comes from the Idempotency-Key:
 * a retry of a request that died after calling the bank (its claim is taken over after 30 s) finds that transaction
 * and asks the bank again under the same reference, which the bank deduplicates, so the card is never charged twice.
 */
async function pendingTransaction(deps: Deps, req: ApiRequest<CreateChargeBody>, card: StoredCard): Promise<Transaction> {
  const { merchant, mode } = req.auth;
  const derived = chargeReference(req.idempotency!.claim.scope);
  const earlier = await deps.transactions.get(derived);
  if (earlier?.status === 'pending') return earlier;
  // A settled one belongs to an older request whose key has expired since (24 h): this is a new charge.
  const reference = earlier ? prefixedId('txn') : derived;
  const pending: Transaction = {
    ...newTransaction(
      { reference },
      { merchantId: merchant.id, mode, sessionReference: null, gateway: card.gateway, amountMinor: req.body.amountMinor, currency: req.body.currency, now: req.now },
      { brand: card.brand, lastFour: card.lastFour, expMonth: card.expMonth, expYear: card.expYear, holderName: card.holderName },
      card.documentType && card.documentId ? { type: card.documentType, id: card.documentId } : null,
    ),
    svcToken: card.svcToken,
  };
  await deps.charges.commit([deps.transactions.putItem(pending, { isNew: true })]);
  return pending;
}

function resultOf(outcome: Exclude<GatewayOutcome, { kind: 'unknown' }>): TransactionResult {
  if (outcome.kind === 'approved') return { status: 'approved', processorReference: outcome.processorReference };
  // Nobody can enter an OTP here: a gateway that asks for one wants the customer, as a soft decline does.
  if (outcome.kind === 'otp_required' || outcome.code === PROCESSOR_CODES.AUTHENTICATION_REQUIRED) {
    return rejection('declined', PROCESSOR_CODES.AUTHENTICATION_REQUIRED, 'The gateway asked for the customer to verify the card again.');
  }
  return rejection(outcome.kind, outcome.code, outcome.detail);
}

/** The card, if this merchant may charge it here: 404 as if missing for another merchant's, 409 for the rule it breaks. */
async function chargeableCard(deps: Deps, merchant: Merchant, mode: Mode, body: CreateChargeBody): Promise<StoredCard> {
  const card = await deps.cards.get(body.svcToken);
  if (!card || card.merchantId !== merchant.id || card.mode !== mode || card.status === 'deleted') throw new NotFoundError('card', 'svcToken');
  if (!GATEWAYS[card.gateway].storedCardsWithoutCvv) {
    throw new ConflictError('card_flow_unsupported', 'This card is charged with its CVV: create a session with cardToken and let the customer pay in the checkout.');
  }
  if (GATEWAYS[card.gateway].currency !== body.currency) {
    throw new ValidationError(`This card is charged in ${GATEWAYS[card.gateway].currency}.`, 'currency', 'parameter_invalid');
  }
  if (body.customerRef !== undefined && body.customerRef !== card.customerRef) {
    throw new ConflictError('customer_mismatch', 'This card does not belong to that customerRef.');
  }
  if (card.gatewayAuthStatus === 'requires_authentication') {
    throw new ConflictError('authentication_required', 'The gateway asked the customer to verify this card again: they must pay once with it in the checkout before it can be charged server to server.');
  }
  return card;
}

/**
 * Writes the bank's answer: the transaction, charge.*, and the stored response. A gateway that asks for the
 * customer's verification again (soft decline, or an OTP nobody can enter) also marks the card requires_authentication
 * and announces card.authentication_expired, once.
 */
async function settle(deps: Deps, card: StoredCard, pending: Transaction, outcome: GatewayOutcome, idempotency: IdempotencyContext | undefined) {
  const now = deps.clock.now();
  const at = new Date(now).toISOString();
  if (outcome.kind === 'unknown') {
    // No answer in time: the charge stays pending, for the merchant to read later by its reference.
    const late = traced(pending, 'bank_no_answer', now, outcome.detail);
    const answer = { statusCode: 202, body: { ...toTransactionResource(late), svcToken: card.svcToken } };
    await deps.charges.commit([deps.transactions.putItem(late), ...(idempotency ? [idempotency.commit(answer)] : [])]);
    return answer;
  }
  const result = resultOf(outcome);
  const needsVerification = result.status === 'declined' && result.errorCode === PROCESSOR_CODES.AUTHENTICATION_REQUIRED;
  const resolved = resolveTransaction(pending, result, now);
  const answer = { statusCode: 200, body: { ...toTransactionResource(resolved), svcToken: card.svcToken } };
  for (let race = 1, current: StoredCard | null = card; ; race++) {
    const items = [deps.transactions.putItem(resolved), outboxPut(deps.config.tableName, card.merchantId, chargeEvent(resolved, at))];
    const cardIndex = items.length;
    if (needsVerification && current && current.gatewayAuthStatus !== 'requires_authentication') {
      const marked: StoredCard = { ...current, gatewayAuthStatus: 'requires_authentication', version: current.version + 1 };
      items.push(deps.cards.updateItem(marked, current.version), deps.cards.event(card.merchantId, authenticationExpiredEvent(marked, resolved.reference, at)));
    }
    if (idempotency) items.push(idempotency.commit(answer));
    try {
      await deps.charges.commit(items);
      return answer;
    } catch (error) {
      // The bank has answered: a card changed meanwhile (a notice, a delete) must not lose that answer. Decide again on it.
      const cardChanged = error instanceof TransactionConflictError || (error instanceof TransactionConditionFailedError && error.index === cardIndex);
      if (!cardChanged || race >= MAX_RACES) throw error;
      current = await deps.cards.get(card.svcToken);
    }
  }
}
