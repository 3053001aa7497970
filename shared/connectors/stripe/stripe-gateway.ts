/**
 * The Stripe PaymentIntents connector for USD, behind the payment port. One PaymentIntent per session, created with
 * capture_method=manual when the buyer opens the checkout (or at the first charge); each attempt confirms it with the
 * buyer's card and, once authorised, captures it; closing the session cancels it; refunds are Stripe refunds of it.
 *
 * How an intent is found again with no store of ours: its creation is repeated with the same Idempotency-Key and
 * parameters, which Stripe answers from its record (Idempotent-Replayed) instead of creating another; where the
 * amount is not at hand (a status read), Stripe's search by our metadata finds it.
 */
import type Stripe from 'stripe';
import { SERVICE_CODES } from '../../domain/decline-codes.ts';
import {
  cardOf,
  GatewayTimeoutError,
  GatewayUnavailableError,
  type BankAccount,
  type ChargeReference,
  type ChargeRequest,
  type GatewayOutcome,
  type PaymentGateway,
  type RefundOutcome,
  type RefundRequest,
} from '../../gateways/payment-gateway.ts';
import { secretKeyFor, StripeCredentialsError } from './credentials.ts';
import { approvedOutcome, chargeErrorOutcome, refundOutcome, STRIPE_CONNECTOR_CODES, stripeCode, stripeDeclineReason, stripeError } from './outcomes.ts';
import { stripeTransport, type StripeCall, type StripeReply } from './stripe-http.ts';
import type { GatewayUrls } from '../connector.ts';
import { cancelParams, captureParams, confirmParams, createIntentParams, idempotencyKeys, METADATA_KEYS, readIntentParams, refundListParams, refundParams } from './wire.ts';

type PendingPayment = Parameters<NonNullable<PaymentGateway['openPayment']>>[0];

/** The port, with the pending-payment operations Stripe always has. */
export type StripeGateway = PaymentGateway & Required<Pick<PaymentGateway, 'openPayment' | 'cancelPayment'>>;

/** Creating, capturing, cancelling and reading are deduplicated or safe at Stripe, so they may be repeated. */
const SAFE_RETRIES = 2;

type Intent = Stripe.PaymentIntent;
type NotFound = { kind: 'not_found' };
type Failed = { kind: 'failed'; code: string; detail: string; reason?: string };
/** Stripe, called with one account's secret key in its environment. */
type Api = (call: Omit<StripeCall, 'secretKey'>) => Promise<StripeReply>;

const isIntent = (body: Record<string, unknown>): boolean => body.object === 'payment_intent' && typeof body.id === 'string' && typeof body.status === 'string';
const isRefund = (body: Record<string, unknown>): boolean => body.object === 'refund' && typeof body.id === 'string';

/** Which attempt a card on the intent belongs to: the transaction reference the connector put on its PaymentMethod. */
const attemptOf = (method: string | Stripe.PaymentMethod | null | undefined): string | null =>
  method && typeof method === 'object' ? (method.metadata?.[METADATA_KEYS.transaction] ?? null) : null;

const unexpected = (what: string, reply: StripeReply): GatewayUnavailableError =>
  new GatewayUnavailableError(`Stripe did not ${what} (HTTP ${reply.status}${stripeError(reply.body)?.code ? `, ${stripeError(reply.body)!.code}` : ''}).`);

/**
 * @example
 * const stripe = stripeGateway({ urls: { live: 'https://api.stripe.com', test: 'https://api.stripe.com' }, timeoutMs: 8000 });
 * await stripe.openPayment({ sessionReference: 'ses_1', amountMinor: 2500, currency: 'USD' }, account);
 */
export function stripeGateway(options: { urls: GatewayUrls; timeoutMs: number }): StripeGateway {
  const transports = {
    live: stripeTransport({ baseUrl: options.urls.live, timeoutMs: options.timeoutMs }),
    test: stripeTransport({ baseUrl: options.urls.test, timeoutMs: options.timeoutMs }),
  };
  const apiFor = (account: BankAccount, secretKey: string): Api => (call) => transports[account.environment]({ ...call, secretKey });

  /** The session's intent, created on first use; a replayed creation is followed by a read of its current state. */
  const openIntent = async (payment: PendingPayment, api: Api): Promise<Intent | Failed> => {
    const reply = await api({
      method: 'POST',
      path: '/v1/payment_intents',
      params: createIntentParams(payment),
      idempotencyKey: idempotencyKeys.open(payment.sessionReference),
      retries: SAFE_RETRIES,
    });
    if (reply.status === 200 && isIntent(reply.body)) {
      const intent = reply.body as unknown as Intent;
      return reply.replayed ? readIntent(intent.id, api) : intent;
    }
    const error = stripeError(reply.body);
    // Stripe refused the payment itself (amount_too_small, a key of the wrong account): no attempt can succeed.
    if (reply.status < 500 && reply.status !== 429 && error) return { ...chargeErrorOutcome(reply.status, error), kind: 'failed' };
    throw unexpected('create the PaymentIntent', reply);
  };

  const readIntent = async (id: string, api: Api): Promise<Intent> => {
    const reply = await api({ method: 'GET', path: `/v1/payment_intents/${encodeURIComponent(id)}`, params: readIntentParams, retries: SAFE_RETRIES });
    if (reply.status === 200 && isIntent(reply.body)) return reply.body as unknown as Intent;
    throw unexpected('read the PaymentIntent', reply);
  };

  /** The session's intent by our metadata, where its amount is not at hand. Null when Stripe's search has none yet. */
  const searchIntent = async (sessionReference: string, api: Api): Promise<Intent | null> => {
    const reply = await api({
      method: 'GET',
      path: '/v1/payment_intents/search',
      params: { query: `metadata["${METADATA_KEYS.session}"]:"${sessionReference}"`, limit: 1 },
      retries: SAFE_RETRIES,
    });
    const data = reply.body.data;
    if (reply.status !== 200 || !Array.isArray(data)) throw unexpected('search PaymentIntents', reply);
    const found = data[0] as Intent | undefined;
    return found ? readIntent(found.id, api) : null;
  };

  /** Captures the authorised intent of this attempt; repeated safely under the attempt's own key. */
  const capture = async (intent: Intent, reference: ChargeReference, api: Api): Promise<GatewayOutcome> => {
    let reply: StripeReply;
    try {
      reply = await api({
        method: 'POST',
        path: `/v1/payment_intents/${encodeURIComponent(intent.id)}/capture`,
        params: captureParams(reference.transactionReference),
        idempotencyKey: idempotencyKeys.capture(reference.transactionReference),
        retries: SAFE_RETRIES,
      });
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      return { kind: 'unknown', detail: `Authorised, capture unconfirmed: ${error.message}` };
    }
    if (reply.status === 200 && isIntent(reply.body)) {
      const captured = reply.body as unknown as Intent;
      return captured.status === 'succeeded' ? approvedOutcome(captured) : { kind: 'unknown', detail: `Captured, Stripe says ${captured.status}.` };
    }
    const error = stripeError(reply.body);
    if (reply.status >= 500 || !error) return { kind: 'unknown', detail: `Authorised, capture unconfirmed (HTTP ${reply.status}).` };
    const now = error.payment_intent;
    if (now?.status === 'canceled') return cancelledOutcome();
    return chargeErrorOutcome(reply.status, error);
  };

  /** What the intent says about this attempt: the port's outcome, or not_found when the attempt never reached it. */
  const intentOutcome = async (intent: Intent, reference: ChargeReference, api: Api): Promise<GatewayOutcome | NotFound> => {
    const ours = attemptOf(intent.payment_method) === reference.transactionReference;
    if (ours) {
      switch (intent.status) {
        case 'succeeded':
          return approvedOutcome(intent);
        case 'requires_capture':
          return capture(intent, reference, api);
        case 'canceled':
          return cancelledOutcome();
        case 'requires_action':
          // 3-D Secure needs the buyer in Stripe.js, which this checkout does not run.
          return { kind: 'declined', code: 'authentication_required', detail: 'The card issuer requires 3-D Secure authentication.', reason: stripeDeclineReason('authentication_required', 'declined') };
        default:
          return { kind: 'unknown', detail: `Stripe is still processing the payment (${intent.status}).` };
      }
    }
    const failure = intent.last_payment_error;
    if (failure && attemptOf(failure.payment_method) === reference.transactionReference) return chargeErrorOutcome(402, failure);
    return { kind: 'not_found' };
  };

  const cancelledOutcome = (): GatewayOutcome => ({ kind: 'failed', code: SERVICE_CODES.PAYMENT_CANCELLED, detail: 'The PaymentIntent was cancelled at Stripe.' });

  /** The attempt's record at Stripe, right after a confirm that got no usable answer. */
  const settleAfterFailure = async (intentId: string, reference: ChargeReference, api: Api, cause: string): Promise<GatewayOutcome> => {
    try {
      const outcome = await intentOutcome(await readIntent(intentId, api), reference, api);
      return outcome.kind === 'not_found' ? { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: `${cause} Stripe has no record of the attempt.` } : outcome;
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      return { kind: 'unknown', detail: `${cause} Its record could not be read: ${error.message}` };
    }
  };

  const confirm = async (intent: Intent, request: ChargeRequest, api: Api): Promise<GatewayOutcome> => {
    const card = cardOf(request.payment);
    // Never reached: Stripe's profile offers no pago móvil, so no C2P charge is routed here.
    if (!card) throw new Error(`${request.transactionReference}: Stripe takes cards only`);
    let reply: StripeReply;
    try {
      // Never repeated here: a repeat is deduplicated by the key anyway, and a timeout is settled by a status read.
      reply = await api({
        method: 'POST',
        path: `/v1/payment_intents/${encodeURIComponent(intent.id)}/confirm`,
        params: confirmParams(request.transactionReference, card),
        idempotencyKey: idempotencyKeys.confirm(request.transactionReference),
      });
    } catch (error) {
      if (error instanceof GatewayTimeoutError) return { kind: 'unknown', detail: error.message };
      if (!(error instanceof GatewayUnavailableError)) throw error;
      return settleAfterFailure(intent.id, request, api, error.message);
    }
    if (reply.status === 200 && isIntent(reply.body)) {
      const outcome = await intentOutcome(reply.body as unknown as Intent, request, api);
      return outcome.kind === 'not_found' ? { kind: 'failed', code: STRIPE_CONNECTOR_CODES.UNEXPECTED_ANSWER, detail: 'The confirmed PaymentIntent does not carry this attempt\'s card.' } : outcome;
    }
    const error = stripeError(reply.body);
    if (reply.status >= 500 || !error || error.type === 'api_error') return settleAfterFailure(intent.id, request, api, `Stripe answered HTTP ${reply.status}.`);
    return chargeErrorOutcome(reply.status, error);
  };

  /** Stripe with the account's key, or the reason no call can be made (key missing, malformed or of the other mode). */
  const apiOrFailure = (account: BankAccount): Api | Failed => {
    try {
      return apiFor(account, secretKeyFor(account));
    } catch (error) {
      if (!(error instanceof StripeCredentialsError)) throw error;
      return { kind: 'failed', code: STRIPE_CONNECTOR_CODES.CREDENTIALS_INVALID, detail: error.message };
    }
  };
  const apiOrThrow = (account: BankAccount): Api => {
    const api = apiOrFailure(account);
    if (typeof api !== 'function') throw new GatewayUnavailableError(api.detail);
    return api;
  };

  const notSupported = (what: string): Failed => ({ kind: 'failed', code: STRIPE_CONNECTOR_CODES.NOT_SUPPORTED, detail: `Stripe does not support ${what} here.` });

  /** The intent of a refund: the charge's processor reference when the caller has it, else a search by session. */
  const refundIntentId = async (request: RefundRequest, api: Api): Promise<string | null> =>
    request.processorReference ?? (await searchIntent(request.sessionReference, api))?.id ?? null;

  const refundStatus = async (request: RefundRequest, account: BankAccount): Promise<RefundOutcome | NotFound> => {
    const api = apiOrThrow(account);
    const intentId = await refundIntentId(request, api);
    if (!intentId) return { kind: 'not_found' };
    const reply = await api({ method: 'GET', path: '/v1/refunds', params: refundListParams(intentId), retries: SAFE_RETRIES });
    const data = reply.body.data;
    if (reply.status !== 200 || !Array.isArray(data)) throw unexpected('list the refunds', reply);
    const refund = (data as Stripe.Refund[]).find((r) => r.metadata?.[METADATA_KEYS.refund] === request.refundReference);
    return refund ? refundOutcome(refund) : { kind: 'not_found' };
  };

  return {
    id: 'stripe',

    async openPayment(payment, account) {
      const opened = await openIntent(payment, apiOrThrow(account));
      if ('kind' in opened) throw new GatewayUnavailableError(`Stripe refused the PaymentIntent: ${opened.code}.`);
      if (opened.status === 'canceled') return 'cancelled';
      return opened.status === 'requires_payment_method' || opened.status === 'requires_confirmation' || opened.status === 'requires_action' ? 'pending' : 'charged';
    },

    async charge(request, account) {
      if (request.merchantInitiated) return notSupported('charging a stored card without the buyer');
      const api = apiOrFailure(account);
      if (typeof api !== 'function') return api;
      let intent: Intent | Failed;
      try {
        intent = await openIntent(request, api);
      } catch (error) {
        if (!(error instanceof GatewayUnavailableError)) throw error;
        // No intent means nothing was charged: this attempt simply failed.
        return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: error.message };
      }
      if ('kind' in intent) return intent;
      // A repeat of this attempt is answered with its first result, never confirmed again.
      const earlier = await intentOutcome(intent, request, api);
      if (earlier.kind !== 'not_found') return earlier;
      if (intent.status === 'canceled') return cancelledOutcome();
      if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_confirmation' && intent.status !== 'requires_action') {
        return { kind: 'failed', code: 'payment_intent_unexpected_state', detail: `The session's PaymentIntent is ${intent.status}: it takes no other card.` };
      }
      return confirm(intent, request, api);
    },

    async verifyOtp() {
      throw new GatewayUnavailableError('Stripe has no OTP step: no code is awaited.');
    },

    async authorize() {
      return notSupported('an OTP confirmation');
    },

    async chargeStatus(reference, account) {
      const api = apiOrThrow(account);
      const intent = await searchIntent(reference.sessionReference, api);
      // The attempt's confirm comes after its intent exists: an intent not found yet is Stripe's search lagging.
      if (!intent) throw new GatewayUnavailableError('Stripe\'s search does not show the session\'s PaymentIntent yet.');
      return intentOutcome(intent, reference, api);
    },

    async refund(request, account) {
      const api = apiOrFailure(account);
      if (typeof api !== 'function') return api;
      let intentId: string | null;
      try {
        intentId = await refundIntentId(request, api);
      } catch (error) {
        if (!(error instanceof GatewayUnavailableError)) throw error;
        return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: error.message };
      }
      if (!intentId) return { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: 'Stripe does not show the charge\'s PaymentIntent yet.' };
      let reply: StripeReply;
      try {
        reply = await api({ method: 'POST', path: '/v1/refunds', params: refundParams(intentId, request), idempotencyKey: idempotencyKeys.refund(request.refundReference) });
      } catch (error) {
        if (error instanceof GatewayTimeoutError) return { kind: 'unknown', detail: error.message };
        if (!(error instanceof GatewayUnavailableError)) throw error;
        reply = { status: 503, body: {}, replayed: false };
      }
      if (reply.status === 200 && isRefund(reply.body)) return refundOutcome(reply.body as unknown as Stripe.Refund);
      const error = stripeError(reply.body);
      if (reply.status < 500 && error && error.type !== 'api_error') return { kind: 'failed', code: stripeCode(error, reply.status), detail: error.message ?? `Stripe answered HTTP ${reply.status}.` };
      // A 5xx or a dropped connection: Stripe's list of the intent's refunds says whether it was made.
      try {
        const record = await refundStatus(request, account);
        return record.kind === 'not_found' ? { kind: 'failed', code: SERVICE_CODES.PROCESSOR_UNAVAILABLE, detail: 'Stripe failed to make the refund and has no record of it.' } : record;
      } catch (statusError) {
        if (!(statusError instanceof GatewayUnavailableError)) throw statusError;
        return { kind: 'unknown', detail: `Stripe failed and its record could not be read: ${statusError.message}` };
      }
    },

    refundStatus,

    async cancelPayment(sessionReference, account, payment) {
      // Without a key no intent can have been created for this account: there is nothing to cancel.
      if (!account.credentials) return 'not_found';
      const api = apiOrThrow(account);
      let intent: Intent | null;
      if (payment) {
        const opened = await openIntent(payment, api);
        if ('kind' in opened) return 'not_found';
        intent = opened;
      } else {
        intent = await searchIntent(sessionReference, api);
      }
      if (!intent) return 'not_found';
      const verdict = cancelVerdict(intent.status);
      if (verdict) return verdict;
      const reply = await api({
        method: 'POST',
        path: `/v1/payment_intents/${encodeURIComponent(intent.id)}/cancel`,
        params: cancelParams(),
        idempotencyKey: idempotencyKeys.cancel(sessionReference),
        retries: SAFE_RETRIES,
      });
      if (reply.status === 200 && isIntent(reply.body) && reply.body.status === 'canceled') return 'cancelled';
      // Charged (or cancelled) meanwhile: Stripe refuses with payment_intent_unexpected_state and the intent as it is.
      const now = stripeError(reply.body)?.payment_intent?.status;
      const raced = reply.status === 400 && now ? cancelVerdict(now) : null;
      if (raced) return raced;
      throw unexpected('cancel the PaymentIntent', reply);
    },
  };
}

/**
 * An intent that can no longer be cancelled, and why. requires_capture and processing count as charged: an attempt
 * holds the buyer's authorisation and is being captured (a status read completes it).
 */
function cancelVerdict(status: Intent['status']): 'cancelled' | 'already_charged' | null {
  if (status === 'canceled') return 'cancelled';
  if (status === 'succeeded' || status === 'requires_capture' || status === 'processing') return 'already_charged';
  return null;
}
