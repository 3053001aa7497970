import { afterWrongOtp, decideOtpEntry } from '../../shared/domain/charge-transitions.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { buildEvent } from '../../shared/domain/events.ts';
import { stateOf, type Session } from '../../shared/domain/session.ts';
import { traced, type Transaction } from '../../shared/domain/transaction.ts';
import type { PaymentDeps } from '../../shared/deps.ts';
import { GATEWAYS } from '../../shared/domain/merchant.ts';
import { ApiError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../shared/http/handler-types.ts';
import { errorBody } from '../../shared/http/response.ts';
import { GatewayUnavailableError } from '../../shared/gateways/payment-gateway.ts';
import { CheckoutOtpBodySchema, type CheckoutOtpBody } from '../../shared/schemas/checkout-schemas.ts';
import { bankAccountFor } from '../../shared/payments/bank-account.ts';
import { applyOutcome, chargeAnswer, commitStep, progressStep, rejection, settlementStep } from '../../shared/payments/charge-steps.ts';
import { checkoutSession, refuse } from '../../shared/payments/checkout-session.ts';
import { otpConfirmation } from '../../shared/payments/otp-confirmation.ts';
import { withReservedEntry } from '../../shared/payments/otp-entries.ts';
import { decideOnFreshSession, SessionMovedError, sessionMoved } from '../../shared/payments/session-contention.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

/**
 * POST /v1/checkout/otp. The session goes otp_requested -> otp_confirmed -> processing -> completed/failed; with
 * `abandon` (the buyer chose another card) otp_requested -> failed at once, one failure like any ended attempt.
 * Wrong codes are not failures of the session, whether our check of their shape or the bank refuses them (a wrong
 * clave or account type, FACTOR_REFUSAL_CODES): after MAX_OTP_ENTRIES of them the attempt ends declined (one failure).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.confirmCheckoutOtp,
  {
    body: CheckoutOtpBodySchema,
  },
  // A code entered while another request moved the session is decided again on the session as it is now, with the
  // bank's verdict on the code kept from the first time it was asked: the verdict does not change, the session may.
  // Each entry is reserved before the bank sees it (otp-entries.ts), so parallel entries cannot pass the limit.
  async (req, deps) => {
    if (req.body.abandon) {
      if (req.body.code !== undefined) throw new ValidationError('Send either code or abandon, not both.', 'abandon', 'parameter_invalid');
      return decideOnFreshSession(deps, checkoutSession(req.auth), (session) => abandonStep(req, deps, session));
    }
    if (req.body.code === undefined) throw new ValidationError('Missing required parameter: code (or abandon: true to leave the code step).', 'code', 'parameter_missing');
    // A bank that takes the whole card again with the code needs the CVV and the account: refused before anything changes.
    if (GATEWAYS[checkoutSession(req.auth).gateway].cardWithOtp) {
      for (const field of ['cvv', 'accountType'] as const) {
        if (req.body[field] === undefined) throw new ValidationError(`Missing required parameter: ${field}. This bank takes the card again with the code.`, field, 'parameter_missing');
      }
    }
    const asked: BankVerdict = {};
    return decideOnFreshSession(deps, checkoutSession(req.auth), (session) => enterCode(req, deps, session, asked));
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment },
);

interface BankVerdict {
  verdict?: 'valid' | 'invalid';
}

/** The attempt awaiting this request's code, and whether it came in time; refuses what the step does not await. */
async function awaitedAttempt(req: ApiRequest<CheckoutOtpBody>, deps: PaymentDeps, session: Session): Promise<{ transaction: Transaction; tooLate: boolean }> {
  const transaction = await deps.transactions.get(req.body.transactionReference);
  if (!transaction || transaction.sessionReference !== session.reference) throw new NotFoundError('transaction', 'transactionReference');
  const decision = decideOtpEntry(stateOf(session), req.now);
  if (decision.kind === 'refuse') refuse(decision.refusal);
  // A code for an earlier attempt of the session is not awaited any more.
  if (session.lastTransaction?.reference !== transaction.reference) refuse({ status: 409, code: 'otp_not_requested' });
  return { transaction, tooLate: decision.kind === 'too_late' };
}

/** The way back from the code step: nothing reaches the bank, the attempt ends declined and counts one failure. */
async function abandonStep(req: ApiRequest<CheckoutOtpBody>, deps: PaymentDeps, session: Session): Promise<ApiResult> {
  const { transaction, tooLate } = await awaitedAttempt(req, deps, session);
  if (tooLate) return settle(deps, req, session, transaction, SERVICE_CODES.OTP_EXPIRED, 'The OTP step was left after the session expired.');
  return settle(deps, req, session, traced(transaction, 'otp_abandoned', req.now), SERVICE_CODES.OTP_ABANDONED, 'The buyer left the code step to pay another way.');
}

async function enterCode(req: ApiRequest<CheckoutOtpBody>, deps: PaymentDeps, session: Session, asked: BankVerdict): Promise<ApiResult> {
  const { transaction, tooLate } = await awaitedAttempt(req, deps, session);
  if (tooLate) return settle(deps, req, session, transaction, SERVICE_CODES.OTP_EXPIRED, 'The OTP was entered after the session expired.');
  const code = req.body.code!;

  const account = await bankAccountFor(deps, req.auth.merchant, session);
  const gateway = deps.gateways(session.gateway);
  const reference = { transactionReference: transaction.reference, sessionReference: session.reference };
  // Reserved before the bank sees the code, once per request: the verdict is kept across lost session writes.
  const verdict = (asked.verdict ??= await withReservedEntry(deps, session, transaction, () =>
    gateway.verifyOtp(reference, code, account).catch(async (error: unknown) => {
      if (error instanceof GatewayUnavailableError) {
        // The bank awaits no code once another request has confirmed this one: decide again on the session as it is.
        if (await sessionMoved(deps, session)) throw new SessionMovedError();
        throw new ApiError(503, SERVICE_CODES.PROCESSOR_UNAVAILABLE, 'The bank could not check the code right now; nothing changed. Retry shortly.', { cause: error });
      }
      throw error;
    }),
  ));

  if (verdict === 'invalid') return wrongEntry(deps, req, session, traced(transaction, 'otp_invalid', req.now), req.now);

  // Opened before the session moves on: a card that cannot be read leaves the code unconfirmed.
  const confirmation = GATEWAYS[session.gateway].cardWithOtp
    ? await otpConfirmation(deps, session, transaction, { code, cvv: req.body.cvv!, accountType: req.body.accountType! }, req.client)
    : undefined;
  const at = new Date(req.now).toISOString();
  const confirmed = progressStep(session, traced(transaction, 'otp_confirmed', req.now), 'otp_confirmed', [
    buildEvent('session.otp_confirmed', session.mode, at, { sessionReference: session.reference, transactionReference: transaction.reference }),
  ]);
  await commitStep(deps, confirmed, null);
  const processing = progressStep(confirmed.after, confirmed.transaction, 'processing');
  await commitStep(deps, processing, null);
  const outcome = await gateway.authorize(reference, account, confirmation);
  // The bank refused the clave or the account, not the card: a wrong entry of this step, the sealed number kept for the next.
  if (outcome.kind === 'declined' && outcome.factorRefused) {
    const refused = traced(processing.transaction, 'otp_refused', deps.clock.now(), `${outcome.code}: ${outcome.detail}`);
    return wrongEntry(deps, req, processing.after, refused, deps.clock.now(), { byBank: true });
  }
  // The code step needed the sealed number until the bank answered; an approval that stores the card still needs it.
  return applyOutcome(deps, processing.after, processing.transaction, outcome, req.idempotency, { dropSealedCard: !session.customerRef });
}

/**
 * A wrong entry (`transaction` traced with it): back to the code step with one entry less, 422 otp_invalid; the
 * attempt ends declined once the entries are used up, or when the bank's refusal came after the session's end.
 */
async function wrongEntry(deps: PaymentDeps, req: ApiRequest<CheckoutOtpBody>, session: Session, transaction: Transaction, now: number, { byBank = false } = {}): Promise<ApiResult> {
  const wrong = { ...transaction, otpFailures: transaction.otpFailures + 1 };
  const next = afterWrongOtp(wrong.otpFailures);
  if (next.kind === 'exhausted') return settle(deps, req, session, wrong, SERVICE_CODES.OTP_ATTEMPTS_EXCEEDED, `${wrong.otpFailures} wrong OTP codes.`, now);
  if (now >= Date.parse(session.expiresAt)) return settle(deps, req, session, wrong, SERVICE_CODES.OTP_EXPIRED, 'The bank refused the code after the session expired.', now);
  const remain = `${next.entriesRemaining} ${next.entriesRemaining === 1 ? 'entry remains' : 'entries remain'}.`;
  // No field for the bank's refusal: it does not say whether the code or the account type was wrong.
  const body = byBank ? errorBody(422, 'otp_invalid', `The bank refused the code or the account type. ${remain}`) : errorBody(422, 'otp_invalid', `The code is not correct. ${remain}`, 'code');
  // After the bank's refusal the session was processing: the code is awaited again, as the event says.
  const events = byBank ? [buildEvent('session.otp_requested', session.mode, new Date(now).toISOString(), { sessionReference: session.reference, transactionReference: wrong.reference })] : [];
  const answer = { statusCode: 422, body };
  await commitStep(deps, progressStep(session, wrong, 'otp_requested', events), answer, req.idempotency);
  return answer;
}

/** Ends the attempt declined: the session's failure count, and maybe its closing, follow the state machine. */
async function settle(deps: PaymentDeps, req: ApiRequest<CheckoutOtpBody>, session: Session, transaction: Transaction, code: string, detail: string, now = req.now): Promise<ApiResult> {
  const step = settlementStep(session, transaction, rejection('declined', code, detail), now);
  const answer = chargeAnswer(step.after, step.transaction, now);
  await commitStep(deps, step, answer, req.idempotency);
  return answer;
}
