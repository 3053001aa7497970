/**
 * A stateful Stripe for the sandbox: the PaymentIntents and Refunds endpoints the Stripe connector uses, speaking
 * Stripe's protocol (HTTP Basic with a secret key, bracket-keyed form bodies, Idempotency-Key, the `error` object),
 * with Stripe's test cards (test-cards.ts). stripe-mock validates shapes but keeps no state and never declines; this
 * one moves intents through their statuses:
 *
 *   requires_payment_method --confirm--> requires_capture --capture--> succeeded     (manual capture)
 *   requires_payment_method --confirm, declined--> requires_payment_method + last_payment_error
 *   requires_payment_method | requires_capture | requires_action --cancel--> canceled
 *
 *   POST /v1/payment_intents                   GET /v1/payment_intents/{id}       GET /v1/payment_intents/search
 *   POST /v1/payment_intents/{id}/confirm      POST /v1/payment_intents/{id}/capture   POST /v1/payment_intents/{id}/cancel
 *   POST /v1/refunds                           GET /v1/refunds                    GET /v1/refunds/{id}
 *
 * Idempotency as Stripe documents it: the first answer to a key is stored once execution begins and replayed
 * (Idempotent-Replayed: true) for the same endpoint and parameters; other parameters answer 400 idempotency_error;
 * keys are forgotten after 24 hours (sandbox clock). Objects belong to the secret
 * key that created them. Faults for tests: a 500 before anything is done, an answer held past the caller's deadline,
 * a dropped connection (the last two after the operation is done, the case a caller must reconcile).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Clock } from '../../../shared/clock.ts';
import { startNetworkServer } from '../network-server.ts';
import { newCharge, newIntent, newPaymentMethod, newRefund, parseForm, stripeId, type Charge, type FormValue, type Intent, type PaymentMethod, type Refund } from './stripe-objects.ts';
import { stripeCardBehaviour, stripeCardBrand } from './test-cards.ts';

export type StripeOperation = 'create_intent' | 'read_intent' | 'search_intents' | 'confirm' | 'capture' | 'cancel' | 'create_refund' | 'list_refunds' | 'read_refund';

export interface StripeCallRecord {
  method: string;
  path: string;
  operation: StripeOperation | null;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  contentType: string | null;
  livemode: boolean;
  /** The parameters as Stripe parsed them, without the card's number and CVC, which are never kept. */
  params: Record<string, FormValue>;
}

export interface StripeFault {
  operation: StripeOperation;
  /** server_error: 500 api_error, nothing done. delay: done, answer held past any deadline. drop: done, connection cut. */
  kind: 'server_error' | 'delay' | 'drop';
  /** How many requests it hits; default 1. */
  times?: number;
}

export interface StripeSimulator {
  url: string;
  calls(filter?: Partial<Pick<StripeCallRecord, 'operation' | 'method' | 'path'>>): StripeCallRecord[];
  injectFault(fault: StripeFault): void;
  clearFaults(): void;
  /** The intent created for a session of ours (metadata svc_session), as it is now. */
  intentOf(sessionReference: string): Intent | null;
  /** The intent is paid outside the connector (as when the buyer paid on Stripe's own page): succeeded. */
  markIntentSucceeded(sessionReference: string): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body: unknown;
}

interface StoredKey {
  path: string;
  /** Keyed HMAC of the parameters: they hold a card number, which is never kept in clear or as a plain hash. */
  params: string;
  reply: Reply;
  at: number;
}

/** Stripe forgets an idempotency key after at least 24 hours. */
const KEY_RETENTION_MS = 24 * 3_600_000;
const SECRET_KEY = /^sk_(test|live)_[0-9A-Za-z]+$/;
/** The smallest USD charge Stripe takes (docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). */
const MINIMUM_USD = 50;

/** The top-level parameters each endpoint reads; any other answers 400 parameter_unknown, as Stripe does. */
const KNOWN_PARAMS: Record<StripeOperation, readonly string[]> = {
  create_intent: ['amount', 'currency', 'capture_method', 'allowed_payment_method_types', 'metadata', 'description', 'expand'],
  read_intent: ['expand'],
  search_intents: ['query', 'limit', 'page', 'expand'],
  confirm: ['payment_method_data', 'return_url', 'expand'],
  capture: ['amount_to_capture', 'final_capture', 'metadata', 'expand'],
  cancel: ['cancellation_reason', 'expand'],
  create_refund: ['payment_intent', 'amount', 'reason', 'metadata', 'expand'],
  list_refunds: ['payment_intent', 'limit', 'expand'],
  read_refund: ['expand'],
};
const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'];

type StripeError = { type: string; code?: string; decline_code?: string; message: string; param?: string; payment_intent?: unknown; payment_method?: unknown; charge?: string };

const errorReply = (status: number, error: StripeError): Reply => ({
  status,
  body: { error: { ...error, ...(error.code ? { doc_url: `https://docs.stripe.com/error-codes/${error.code.replace(/_/g, '-')}` } : {}), request_log_url: `https://dashboard.stripe.com/logs/${stripeId('req')}` } },
});
const invalid = (message: string, param?: string, code = 'parameter_invalid'): Reply => errorReply(400, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });
const missing = (kind: string, id: string): Reply => errorReply(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param: 'id' });

const str = (value: FormValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
const obj = (value: FormValue | undefined): Record<string, FormValue> => (value && typeof value === 'object' && !Array.isArray(value) ? value : {});
const metadataOf = (value: FormValue | undefined): Record<string, string> => Object.fromEntries(Object.entries(obj(value)).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
const integer = (value: FormValue | undefined): number | null => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null);

export async function startStripeSimulator({ clock, host = '127.0.0.1', port = 0 }: { clock: Clock; host?: string; port?: number }): Promise<StripeSimulator> {
  const intents = new Map<string, { intent: Intent; owner: string }>();
  const methods = new Map<string, PaymentMethod>();
  /** The charges of authorised cards, by id (a declined attempt's charge id is never expanded). */
  const charges = new Map<string, Charge>();
  const refunds = new Map<string, { refund: Refund; owner: string }>();
  const keys = new Map<string, StoredKey>();
  const calls: StripeCallRecord[] = [];
  let faults: Required<StripeFault>[] = [];
  const paramsKey = randomBytes(32);
  const seconds = () => Math.floor(clock.now() / 1000);

  /** The intent as Stripe shows it: its PaymentMethod and latest charge as ids, or the objects when expanded. */
  const render = (intent: Intent, expand: FormValue | undefined): Intent => {
    const expands = (field: string) => Array.isArray(expand) && expand.some((e) => e === field || e === `data.${field}`);
    const method = typeof intent.payment_method === 'string' ? methods.get(intent.payment_method) : null;
    const charge = typeof intent.latest_charge === 'string' ? charges.get(intent.latest_charge) : null;
    return structuredClone({
      ...intent,
      ...(expands('payment_method') && method ? { payment_method: method } : {}),
      ...(expands('latest_charge') && charge ? { latest_charge: charge } : {}),
    });
  };

  const ownIntent = (id: string, owner: string): Intent | null => {
    const entry = intents.get(id);
    return entry && entry.owner === owner ? entry.intent : null;
  };

  const unexpectedState = (intent: Intent, action: string, allowed: string): Reply =>
    errorReply(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: `This PaymentIntent's ${action} could not be performed because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be ${allowed}.`,
      payment_intent: render(intent, undefined),
    });

  const createIntent = (params: Record<string, FormValue>, owner: string): Reply => {
    const amount = integer(params.amount);
    const currency = str(params.currency);
    if (amount === null || amount < 1) return invalid('amount must be a positive integer in the smallest currency unit.', 'amount', amount === null ? 'parameter_missing' : 'parameter_invalid_integer');
    if (!currency || !/^[a-z]{3}$/.test(currency)) return invalid('currency must be a three-letter ISO code, lowercase.', 'currency', 'parameter_missing');
    if (currency === 'usd' && amount < MINIMUM_USD) return invalid('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
    const captureMethod = str(params.capture_method) ?? 'automatic';
    if (!['automatic', 'automatic_async', 'manual'].includes(captureMethod)) return invalid(`Invalid capture_method: ${captureMethod}`, 'capture_method');
    const allowed = params.allowed_payment_method_types;
    if (allowed !== undefined && !(Array.isArray(allowed) && allowed.length === 1 && allowed[0] === 'card')) {
      return invalid('The simulator offers only the card payment method.', 'allowed_payment_method_types');
    }
    const intent = newIntent({ amount, currency, captureMethod, metadata: metadataOf(params.metadata), description: str(params.description) ?? null, livemode: owner.startsWith('sk_live_'), created: seconds() });
    intents.set(intent.id, { intent, owner });
    return { status: 200, body: render(intent, params.expand) };
  };

  const confirm = (intent: Intent, params: Record<string, FormValue>): Reply => {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      return unexpectedState(intent, 'confirm', 'confirmed: requires_payment_method, requires_confirmation, requires_action');
    }
    const data = obj(params.payment_method_data);
    const card = obj(data.card);
    if (str(data.type) !== 'card') return invalid('payment_method_data[type] must be card.', 'payment_method_data[type]', 'parameter_missing');
    const unknown = Object.keys(data).find((k) => !['type', 'card', 'billing_details', 'metadata'].includes(k)) ?? Object.keys(card).find((k) => !['number', 'exp_month', 'exp_year', 'cvc'].includes(k));
    if (unknown) return invalid(`Received unknown parameter: payment_method_data[${unknown}]`, `payment_method_data[${unknown}]`, 'parameter_unknown');
    const number = str(card.number) ?? '';
    const expMonth = integer(card.exp_month);
    const expYear = integer(card.exp_year);
    if (!/^\d{12,19}$/.test(number)) return errorReply(402, { type: 'card_error', code: 'invalid_number', message: 'The card number is not a valid credit card number.', param: 'number' });
    if (expMonth === null || expMonth < 1 || expMonth > 12) return errorReply(402, { type: 'card_error', code: 'invalid_expiry_month', message: 'Your card\'s expiration month is invalid.', param: 'exp_month' });
    if (expYear === null) return errorReply(402, { type: 'card_error', code: 'invalid_expiry_year', message: 'Your card\'s expiration year is invalid.', param: 'exp_year' });
    if (!/^\d{3,4}$/.test(str(card.cvc) ?? '')) return errorReply(402, { type: 'card_error', code: 'invalid_cvc', message: 'Your card\'s security code is invalid.', param: 'cvc' });
    const method = newPaymentMethod({
      brand: stripeCardBrand(number),
      last4: number.slice(-4),
      expMonth,
      expYear,
      name: str(obj(data.billing_details).name) ?? null,
      metadata: metadataOf(data.metadata),
      livemode: intent.livemode,
      created: seconds(),
    });
    methods.set(method.id, method);
    const behaviour = stripeCardBehaviour({ number, expMonth, expYear }, clock.now());
    const charge = stripeId('ch');
    if (behaviour.kind === 'decline') {
      const error = { type: 'card_error', code: behaviour.code, ...(behaviour.declineCode ? { decline_code: behaviour.declineCode } : {}), message: behaviour.message, charge, payment_method: method };
      Object.assign(intent, { status: 'requires_payment_method', payment_method: null, latest_charge: charge, last_payment_error: error });
      return errorReply(402, { ...error, payment_intent: render(intent, params.expand) });
    }
    if (behaviour.kind === 'authenticate') {
      Object.assign(intent, { status: 'requires_action', payment_method: method.id, last_payment_error: null, next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} } });
      return { status: 200, body: render(intent, params.expand) };
    }
    const manual = intent.capture_method === 'manual';
    charges.set(charge, newCharge({ id: charge, intent, method, created: seconds() }));
    Object.assign(intent, {
      status: manual ? 'requires_capture' : 'succeeded',
      payment_method: method.id,
      latest_charge: charge,
      last_payment_error: null,
      next_action: null,
      amount_capturable: manual ? intent.amount : 0,
      amount_received: manual ? 0 : intent.amount,
    });
    return { status: 200, body: render(intent, params.expand) };
  };

  const capture = (intent: Intent, params: Record<string, FormValue>): Reply => {
    if (intent.status !== 'requires_capture') return unexpectedState(intent, 'capture', 'captured: requires_capture');
    const amount = params.amount_to_capture === undefined ? intent.amount_capturable : integer(params.amount_to_capture);
    if (amount === null || amount < 1 || amount > intent.amount_capturable) return invalid('amount_to_capture must be at most the amount_capturable.', 'amount_to_capture');
    Object.assign(intent, { status: 'succeeded', amount_received: amount, amount_capturable: 0, metadata: { ...intent.metadata, ...metadataOf(params.metadata) } });
    const charge = typeof intent.latest_charge === 'string' ? charges.get(intent.latest_charge) : undefined;
    if (charge) Object.assign(charge, { captured: true, amount_captured: amount });
    return { status: 200, body: render(intent, params.expand) };
  };

  const cancel = (intent: Intent, params: Record<string, FormValue>): Reply => {
    const reason = str(params.cancellation_reason);
    if (reason !== undefined && !CANCELLATION_REASONS.includes(reason)) return invalid(`Invalid cancellation_reason: must be one of ${CANCELLATION_REASONS.join(', ')}`, 'cancellation_reason');
    if (!['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      return unexpectedState(intent, 'cancel', 'canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action');
    }
    Object.assign(intent, { status: 'canceled', canceled_at: seconds(), cancellation_reason: reason ?? null, amount_capturable: 0, next_action: null });
    return { status: 200, body: render(intent, params.expand) };
  };

  const search = (params: Record<string, FormValue>, owner: string): Reply => {
    const query = /^metadata\["([^"]+)"\]:"([^"]*)"$/.exec(str(params.query) ?? '');
    if (!query) return invalid('The simulator searches by one metadata field only: metadata["key"]:"value".', 'query');
    const [, key, value] = query;
    const limit = integer(params.limit) ?? 10;
    const found = [...intents.values()].filter((e) => e.owner === owner && e.intent.metadata[key!] === value).map((e) => e.intent).sort((a, b) => b.created - a.created);
    return { status: 200, body: { object: 'search_result', data: found.slice(0, limit).map((i) => render(i, params.expand)), has_more: found.length > limit, next_page: null, url: '/v1/payment_intents/search' } };
  };

  const createRefund = (params: Record<string, FormValue>, owner: string): Reply => {
    const id = str(params.payment_intent);
    if (!id) return invalid('payment_intent is required.', 'payment_intent', 'parameter_missing');
    const intent = ownIntent(id, owner);
    if (!intent) return missing('payment_intent', id);
    if (intent.status !== 'succeeded') {
      return errorReply(400, { type: 'invalid_request_error', code: 'charge_not_refundable', message: `This PaymentIntent (${id}) does not have a successful charge to refund.`, param: 'payment_intent' });
    }
    const refunded = [...refunds.values()].filter((r) => r.refund.payment_intent === id && r.refund.status !== 'failed' && r.refund.status !== 'canceled').reduce((sum, r) => sum + r.refund.amount, 0);
    const remaining = intent.amount_received - refunded;
    if (remaining <= 0) return errorReply(400, { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${String(intent.latest_charge)} has already been refunded.` });
    const amount = params.amount === undefined ? remaining : integer(params.amount);
    if (amount === null || amount < 1) return invalid('amount must be a positive integer.', 'amount', 'parameter_invalid_integer');
    if (amount > remaining) {
      return invalid(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`, 'amount', 'amount_too_large');
    }
    const refund = newRefund({
      amount,
      currency: intent.currency,
      charge: typeof intent.latest_charge === 'string' ? intent.latest_charge : null,
      paymentIntent: id,
      paymentMethod: typeof intent.payment_method === 'string' ? intent.payment_method : null,
      reason: str(params.reason) ?? null,
      metadata: metadataOf(params.metadata),
      created: seconds(),
    });
    refunds.set(refund.id, { refund, owner });
    return { status: 200, body: structuredClone(refund) };
  };

  const listRefunds = (params: Record<string, FormValue>, owner: string): Reply => {
    const intent = str(params.payment_intent);
    const limit = integer(params.limit) ?? 10;
    const mine = [...refunds.values()].filter((r) => r.owner === owner && (intent === undefined || r.refund.payment_intent === intent)).map((r) => r.refund).sort((a, b) => b.created - a.created);
    return { status: 200, body: { object: 'list', data: structuredClone(mine.slice(0, limit)), has_more: mine.length > limit, url: '/v1/refunds' } };
  };

  /** Which operation a request is, and the object it names. */
  const route = (method: string, segments: string[]): { operation: StripeOperation; id?: string } | null => {
    const [version, collection, id, action] = segments;
    if (version !== 'v1') return null;
    if (collection === 'payment_intents') {
      if (id === undefined) return method === 'POST' ? { operation: 'create_intent' } : null;
      if (id === 'search' && action === undefined) return method === 'GET' ? { operation: 'search_intents' } : null;
      if (action === undefined) return method === 'GET' ? { operation: 'read_intent', id } : null;
      if (method === 'POST' && (action === 'confirm' || action === 'capture' || action === 'cancel') && segments.length === 4) return { operation: action, id };
      return null;
    }
    if (collection === 'refunds' && action === undefined) {
      if (id === undefined) return method === 'POST' ? { operation: 'create_refund' } : method === 'GET' ? { operation: 'list_refunds' } : null;
      return method === 'GET' ? { operation: 'read_refund', id } : null;
    }
    return null;
  };

  const execute = (operation: StripeOperation, id: string | undefined, params: Record<string, FormValue>, owner: string): Reply => {
    const unknown = Object.keys(params).find((k) => !KNOWN_PARAMS[operation].includes(k));
    if (unknown) return invalid(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown');
    switch (operation) {
      case 'create_intent':
        return createIntent(params, owner);
      case 'search_intents':
        return search(params, owner);
      case 'create_refund':
        return createRefund(params, owner);
      case 'list_refunds':
        return listRefunds(params, owner);
      case 'read_refund': {
        const entry = refunds.get(id!);
        return entry && entry.owner === owner ? { status: 200, body: structuredClone(entry.refund) } : missing('refund', id!);
      }
      default: {
        const intent = ownIntent(id!, owner);
        if (!intent) return missing('payment_intent', id!);
        if (operation === 'read_intent') return { status: 200, body: render(intent, params.expand) };
        if (operation === 'confirm') return confirm(intent, params);
        if (operation === 'capture') return capture(intent, params);
        return cancel(intent, params);
      }
    }
  };

  /** The first fault for this operation, used up by one request. */
  const takeFault = (operation: StripeOperation): StripeFault['kind'] | null => {
    const fault = faults.find((f) => f.operation === operation);
    if (!fault) return null;
    fault.times -= 1;
    faults = faults.filter((f) => f.times > 0);
    return fault.kind;
  };

  const handle = async (req: IncomingMessage): Promise<{ reply: Reply; replayed: boolean; after: 'delay' | 'drop' | null } | null> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stripe');
    const method = req.method ?? 'GET';
    const owner = secretKeyOf(req.headers.authorization);
    if (!owner) {
      return { reply: errorReply(401, { type: 'invalid_request_error', message: 'Invalid API Key provided. Use HTTP Basic with your secret key (sk_test_... or sk_live_...) as the user name.' }), replayed: false, after: null };
    }
    const target = route(method, url.pathname.split('/').filter(Boolean).map(decodeURIComponent));
    const params = method === 'POST' ? parseForm(Buffer.concat(chunks).toString('utf8')) : parseForm(url.search.slice(1));
    const idempotencyKey = method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) ?? null : null;
    calls.push({
      method,
      path: url.pathname,
      operation: target?.operation ?? null,
      idempotencyKey,
      stripeVersion: (req.headers['stripe-version'] as string | undefined) ?? null,
      contentType: (req.headers['content-type'] as string | undefined) ?? null,
      livemode: owner.startsWith('sk_live_'),
      params: withoutCardSecrets(params),
    });
    if (!target) return { reply: errorReply(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` }), replayed: false, after: null };
    if (method === 'POST' && !/^application\/x-www-form-urlencoded\b/.test(String(req.headers['content-type'] ?? ''))) {
      return { reply: invalid('Stripe takes application/x-www-form-urlencoded request bodies.', undefined, 'parameter_invalid'), replayed: false, after: null };
    }

    const fault = takeFault(target.operation);
    if (fault === 'server_error') return { reply: errorReply(500, { type: 'api_error', message: 'An unknown error occurred on Stripe\'s end (simulated).' }), replayed: false, after: null };
    const after = fault === 'delay' || fault === 'drop' ? fault : null;

    if (!idempotencyKey) return { reply: execute(target.operation, target.id, params, owner), replayed: false, after };
    for (const [k, stored] of keys) if (clock.now() - stored.at > KEY_RETENTION_MS) keys.delete(k);
    const slot = `${owner}\u0000${idempotencyKey}`;
    const canonical = createHmac('sha256', paramsKey).update(JSON.stringify(sorted(params))).digest('hex');
    const stored = keys.get(slot);
    if (stored) {
      if (stored.path !== url.pathname || stored.params !== canonical) {
        return {
          reply: errorReply(400, { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.` }),
          replayed: false,
          after: null,
        };
      }
      return { reply: stored.reply, replayed: true, after };
    }
    // Executed at once (nothing here waits), so no request can find its key in flight: Stripe's 409 never arises.
    const reply = execute(target.operation, target.id, params, owner);
    keys.set(slot, { path: url.pathname, params: canonical, reply, at: clock.now() });
    return { reply, replayed: false, after };
  };

  const { url, close } = await startNetworkServer(
    async (req, res, hold) => {
      const result = await handle(req);
      if (!result) return null;
      if (result.after === 'drop') {
        res.socket?.destroy();
        return null;
      }
      if (result.after === 'delay') await hold(res);
      const headers: Record<string, string> = { 'request-id': stripeId('req'), 'stripe-version': String(req.headers['stripe-version'] ?? '') };
      if (result.replayed) headers['idempotent-replayed'] = 'true';
      return { status: result.reply.status, body: result.reply.body, headers };
    },
    { host, port },
  );

  const sessionIntent = (sessionReference: string) => [...intents.values()].find((e) => e.intent.metadata.svc_session === sessionReference)?.intent ?? null;
  return {
    url,
    calls: (filter = {}) => calls.filter((c) => Object.entries(filter).every(([k, v]) => c[k as keyof StripeCallRecord] === v)),
    injectFault: (fault) => void faults.push({ times: 1, ...fault }),
    clearFaults: () => void (faults = []),
    intentOf: (sessionReference) => {
      const intent = sessionIntent(sessionReference);
      return intent ? structuredClone(intent) : null;
    },
    markIntentSucceeded(sessionReference) {
      const intent = sessionIntent(sessionReference);
      if (intent) Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, amount_capturable: 0, latest_charge: stripeId('ch') });
    },
    close,
  };
}

/** The secret key of an HTTP Basic header (the key is the user name, the password empty), or null. */
function secretKeyOf(header: string | undefined): string | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return null;
  const user = Buffer.from(match[1]!, 'base64').toString('utf8').replace(/:$/, '');
  return SECRET_KEY.test(user) ? user : null;
}

/** The parameters without a card's number and CVC: the last four stand for the number. */
function withoutCardSecrets(params: Record<string, FormValue>): Record<string, FormValue> {
  const data = obj(params.payment_method_data);
  const card = obj(data.card);
  if (!('number' in card) && !('cvc' in card)) return params;
  const { number, cvc: _cvc, ...rest } = card;
  return { ...params, payment_method_data: { ...data, card: { ...rest, ...(typeof number === 'string' ? { last4: number.slice(-4) } : {}) } } };
}

function sorted(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return Array.isArray(value) ? value.map(sorted) : value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k]!)]));
}
