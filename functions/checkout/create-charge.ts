import { CARD_DECLINES_PER_DAY, cardDeclinesCounter, cardDeclinesInput, cardRefused, countsCardDeclines } from '../../shared/domain/card-declines.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { decideChargeStart } from '../../shared/domain/charge-transitions.ts';
import { SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { GATEWAYS } from '../../shared/domain/merchant.ts';
import { checkPaymentData, summariseCard, type CardInput, type PaymentDataIssue } from '../../shared/domain/payment-data.ts';
import { stateOf, type Session } from '../../shared/domain/session.ts';
import { newTransaction, type Transaction, type TransactionResult } from '../../shared/domain/transaction.ts';
import type { PaymentDeps } from '../../shared/deps.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import type { ApiRequest } from '../../shared/http/handler-types.ts';
import { errorBody } from '../../shared/http/response.ts';
import { prefixedId } from '../../shared/ids.ts';
import { CheckoutChargeBodySchema, type CheckoutChargeBody } from '../../shared/schemas/checkout-schemas.ts';
import type { AttemptStep } from '../../shared/store/charge-store.ts';
import { bankAccountFor } from '../../shared/payments/bank-account.ts';
import { sealForCode, sealForVault } from '../../shared/payments/card-vault.ts';
import { applyOutcome, chargeAnswer, commitStep, rejection, settlementStep, startStep } from '../../shared/payments/charge-steps.ts';
import { openedPayment } from '../../shared/payments/processor-payments.ts';
import { checkoutSession, refuse } from '../../shared/payments/checkout-session.ts';
import { decideOnFreshSession } from '../../shared/payments/session-contention.ts';
import { settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { paymentInput } from '../../shared/payments/payment-input.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

/**
 * POST /v1/checkout/charge. The session moves to processing with a version-checked write before the bank is
 * called, so of simultaneous charges exactly one reaches the bank; the others are refused with 409.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.createCheckoutCharge,
  {
    body: CheckoutChargeBodySchema,
  },
  async (req, deps) => {
    const session = await settleStaleAttempt(deps, req.auth.merchant, checkoutSession(req.auth), req.now);
    const account = await bankAccountFor(deps, req.auth.merchant, session);
    const input = await paymentInput(deps, session, req.body);
    const checked = checkPaymentData(input, session.gateway, { luhnExempt: session.mode === 'test' ? GATEWAYS[session.gateway].testCardsFailingLuhn : [] });
    if (!checked.ok) return failAttempt(req, deps, session, input.card, checked.issues);
    const cardKey = await cardKeyFor(deps, session, checked.data.card.number);
    if (cardKey && cardRefused(await deps.rateLimits.dayCount(session.merchantId, cardDeclinesCounter(cardKey), req.now))) {
      return refuseCard(req, deps, session, input.card, cardKey);
    }
    const sealedCard = await sealForVault(deps, session, checked.data);
    const started = await startAttempt(req, deps, session, input.card, { document: checked.data.document, sealedCard, cardKey });
    const outcome = await deps.gateways(session.gateway).charge(
      { transactionReference: started.transaction.reference, sessionReference: session.reference, amountMinor: session.amountMinor, currency: session.currency, payment: checked.data, client: req.client },
      account,
    );
    return applyOutcome(deps, started.after, await sealForCode(deps, session, started.transaction, checked.data, outcome), outcome, req.idempotency);
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment },
);

/** Runs one write of an attempt against the session, deciding again on a fresh read after each lost race. */
const onOpenSession = <T>(
  req: ApiRequest<CheckoutChargeBody>,
  deps: PaymentDeps,
  first: Session,
  typed: CardInput,
  write: (session: Session, transaction: Transaction, usesOpenedPayment: boolean) => Promise<T>,
): Promise<T> =>
  decideOnFreshSession(deps, first, async (session) => {
    const decision = decideChargeStart(stateOf(session), req.now);
    if (decision.kind === 'refuse') refuse(decision.refusal);
    const context = { merchantId: session.merchantId, mode: session.mode, sessionReference: session.reference, gateway: session.gateway, amountMinor: session.amountMinor, currency: session.currency, now: req.now, metadata: session.metadata };
    const opened = await openedPayment(deps, session);
    const transaction = opened ? { ...opened, card: summariseCard(typed) } : newTransaction({ reference: prefixedId('txn') }, context, summariseCard(typed), null);
    return write(session, transaction, opened !== null);
  });

/** The session to processing with a new pending transaction: from here the charge is in flight. */
const startAttempt = (
  req: ApiRequest<CheckoutChargeBody>,
  deps: PaymentDeps,
  session: Session,
  typed: CardInput,
  extra: Pick<Transaction, 'document' | 'sealedCard' | 'cardKey'>,
): Promise<AttemptStep> =>
  onOpenSession(req, deps, session, typed, async (current, transaction, usesOpenedPayment) => {
    const started = startStep(current, { ...transaction, ...extra }, { newTransaction: !usesOpenedPayment });
    await commitStep(deps, extra.sealedCard ? { ...started, sealedCard: 'store' } : started, null);
    return started;
  });

/** An attempt that ends before the bank is asked. It counts as a failure, and its answer is what a retry with this key replays. */
const endAtOnce = (
  req: ApiRequest<CheckoutChargeBody>,
  deps: PaymentDeps,
  session: Session,
  typed: CardInput,
  result: TransactionResult,
  answerOf: (step: AttemptStep) => { statusCode: number; body: unknown },
  extra: Pick<Transaction, 'cardKey'> = {},
) =>
  onOpenSession(req, deps, session, typed, async (current, transaction, usesOpenedPayment) => {
    const step = settlementStep(current, { ...transaction, ...extra }, result, req.now, { newAttempt: true, newTransaction: !usesOpenedPayment });
    const answer = answerOf(step);
    await commitStep(deps, step, answer, req.idempotency);
    return answer;
  });

/** Invalid payment data: a failed attempt, answered 400 with every unusable field at once, the first also as message and field. */
function failAttempt(req: ApiRequest<CheckoutChargeBody>, deps: PaymentDeps, session: Session, typed: CardInput, issues: PaymentDataIssue[]) {
  const problems = issues.map((i) => ({ param: i.field, code: SERVICE_CODES.INVALID_PAYMENT_DATA, message: i.message }));
  const answer = { statusCode: 400, body: errorBody(400, SERVICE_CODES.INVALID_PAYMENT_DATA, issues[0]!.message, issues[0]!.field, problems) };
  const detail = issues.map((i) => `${i.field}: ${i.message}`).join(' ');
  return endAtOnce(req, deps, session, typed, rejection('failed', SERVICE_CODES.INVALID_PAYMENT_DATA, detail), () => answer);
}

/**
 * A card declined too often at this merchant today: declined without asking the bank. The buyer reads the generic
 * decline of any other (chargeAnswer), so a card tester cannot tell the two apart; the merchant reads why.
 */
const refuseCard = (req: ApiRequest<CheckoutChargeBody>, deps: PaymentDeps, session: Session, typed: CardInput, cardKey: string) =>
  endAtOnce(
    req,
    deps,
    session,
    typed,
    rejection('declined', SERVICE_CODES.CARD_DECLINES_EXCEEDED, `The card was declined ${CARD_DECLINES_PER_DAY} times at this merchant today; not sent to the bank.`),
    (step) => chargeAnswer(step.after, step.transaction, req.now),
    { cardKey },
  );

/** The card vault's keyed fingerprint of the number, for the per-card bound; none where the bound does not apply. */
const cardKeyFor = async (deps: PaymentDeps, session: Session, number: string): Promise<string | undefined> =>
  countsCardDeclines(session.mode) ? deps.fingerprinter.fingerprint(cardDeclinesInput(session.merchantId, number)) : undefined;
