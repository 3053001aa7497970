import { createHash } from 'node:crypto';
import * as manifest from '../../shared/route-manifest.ts';
import type { CoreDeps } from '../../shared/deps.ts';
import { ownedBy } from '../../shared/auth/ownership.ts';
import { GATEWAYS, gatewayModeConflict, type Merchant } from '../../shared/domain/merchant.ts';
import { cardNumberContext, type StoredCard } from '../../shared/domain/stored-card.ts';
import { newTransaction, type Transaction } from '../../shared/domain/transaction.ts';
import type { Mode } from '../../shared/domain/session-state.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import type { ApiRequest } from '../../shared/http/handler-types.ts';
import { prefixedId } from '../../shared/ids.ts';
import { CreateChargeBodySchema, type CreateChargeBody } from '../../shared/schemas/card-schemas.ts';
import { IDEMPOTENCY_RETENTION_MS, type IdempotencyScope } from '../../shared/store/idempotency-store.ts';
import { bankAccountFor } from '../../shared/payments/bank-account.ts';
import { guardCustomer } from '../../shared/payments/card-vault.ts';
import { serverChargeAnswer, settleServerCharge } from '../../shared/payments/server-charges.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { chargeEntryItem } from '../../shared/store/payment-index.ts';

/**
 * POST /v1/charges: a stored card charged by the merchant's server, without the customer, on a gateway that needs
 * no CVV. Its transaction has no session (sessionReference null; its charge.* events name the svcToken instead).
 * The transaction is written pending before the bank is called, so a crash leaves a record to reconcile, and the
 * result, its event and the stored answer go in one transaction.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.createCharge,
  {
    body: CreateChargeBodySchema,
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
    const pending = await keyedTransaction(deps, req, card);
    if (pending.status !== 'pending') {
      // Settled by a read of the transaction after this request's first run died: that result is this request's.
      const answer = serverChargeAnswer(pending);
      await deps.charges.commit([req.idempotency!.commit(answer)]);
      return answer;
    }
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
    return serverChargeAnswer(await settleServerCharge(deps, pending, outcome, { idempotency: req.idempotency }));
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment },
);

/** The reference a charge under this Idempotency-Key scope gets, unless an older settled charge already has it. */
export const chargeReference = (scope: IdempotencyScope): string => `txn_${createHash('sha256').update(JSON.stringify(scope)).digest('hex').slice(0, 32)}`;

/**
 * The charge's transaction, written pending before the bank is called. Its reference comes from the Idempotency-Key:
 * a retry of a request that died after calling the bank (its claim is taken over after 30 s) finds that transaction
 * and asks the bank again under the same reference, which the bank deduplicates, so the card is never charged twice.
 * If a read of the transaction settled it meanwhile (GET /v1/transactions/{reference}), it is returned settled.
 */
async function keyedTransaction(deps: CoreDeps, req: ApiRequest<CreateChargeBody>, card: StoredCard): Promise<Transaction> {
  const { merchant, mode } = req.auth;
  const derived = chargeReference(req.idempotency!.claim.scope);
  const earlier = await deps.transactions.get(derived);
  if (earlier && (earlier.status === 'pending' || req.now - Date.parse(earlier.createdAt) < IDEMPOTENCY_RETENTION_MS)) return earlier;
  // Settled before this key's 24 h: it belongs to an older request whose key has expired since. This is a new charge.
  const reference = earlier ? prefixedId('txn') : derived;
  const pending: Transaction = {
    ...newTransaction(
      { reference },
      { merchantId: merchant.id, mode, sessionReference: null, gateway: card.gateway, amountMinor: req.body.amountMinor, currency: req.body.currency, now: req.now, metadata: req.body.metadata },
      { brand: card.brand, lastFour: card.lastFour, expMonth: card.expMonth, expYear: card.expYear, holderName: card.holderName },
      card.documentType && card.documentId ? { type: card.documentType, id: card.documentId } : null,
    ),
    svcToken: card.svcToken,
  };
  await deps.charges.commit([deps.transactions.putItem(pending, { isNew: true }), chargeEntryItem(deps.config.tableName, pending, card.customerRef)]);
  return pending;
}

/** The card, if this merchant may charge it here: 404 as if missing for another merchant's, 409 for the rule it breaks. */
async function chargeableCard(deps: CoreDeps, merchant: Merchant, mode: Mode, body: CreateChargeBody): Promise<StoredCard> {
  const card = await deps.cards.get(body.svcToken);
  if (!ownedBy(card, { merchant, mode }) || card.status === 'deleted') throw new NotFoundError('card', 'svcToken');
  if (!GATEWAYS[card.gateway].storedCardsWithoutCvv) {
    throw new ConflictError('card_flow_unsupported', 'This card is charged with its CVV: create a session with cardToken and let the customer pay in the checkout.');
  }
  if (GATEWAYS[card.gateway].currency !== body.currency) {
    throw new ValidationError(`This card is charged in ${GATEWAYS[card.gateway].currency}.`, 'currency', 'parameter_invalid');
  }
  guardCustomer(card, body.customerRef);
  if (card.gatewayAuthStatus === 'requires_authentication') {
    throw new ConflictError('authentication_required', 'The gateway asked the customer to verify this card again: they must pay once with it in the checkout before it can be charged server to server.');
  }
  return card;
}
