import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { routes, type RouteId } from '../routes.ts';
import type * as Api from './api-types.ts';
import { SvcApiError } from './svc-api-error.ts';

export interface SvcClientOptions {
  /** The API origin, e.g. http://localhost:4010 (the sandbox) or the stage URL; without /v1. */
  baseUrl: string;
  /** sk_test_... or sk_live_...: server side only. */
  secretKey: string;
  /** Defaults to the global fetch (Node.js 18+). */
  fetch?: typeof globalThis.fetch;
  /**
   * Retries after a network error, 409 idempotency_in_progress, 429 or 5xx (default 2), with exponential backoff
   * (Retry-After honoured, capped). Only reads, deletes and calls carrying an Idempotency-Key are retried.
   */
  maxRetries?: number;
}

export interface WriteOptions {
  /** Makes the POST safe to retry: the same key and body replay the first answer for 24 hours. */
  idempotencyKey?: string;
}

interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  idempotencyKey?: string;
}

/**
 * A typed client of the merchant API for the merchant's server. Method and path of each call come from the route
 * manifest, types from the schemas behind /v1/openapi.json. Every non-2xx answer throws SvcApiError.
 *
 * @example
 * const svc = createSvcClient({ baseUrl: 'http://localhost:4010', secretKey: process.env.SVC_SECRET_KEY! });
 * const session = await svc.sessions.create({ amountMinor: 1050, currency: 'VES' }, { idempotencyKey: 'order-42' });
 * redirect(session.checkoutUrl);
 */
export function createSvcClient({ baseUrl, secretKey, fetch = globalThis.fetch, maxRetries = policies.sdkCall.maxAttempts - 1 }: SvcClientOptions) {
  const origin = baseUrl.replace(/\/+$/, '');

  /** One logical call: the same request (same Idempotency-Key) sent again while the failure is a transient one. */
  async function call<T>(routeId: RouteId, input: CallInput = {}): Promise<T> {
    const retrySafe = Boolean(input.idempotencyKey) || ['GET', 'DELETE'].includes(routes[routeId].method);
    return retry({ ...policies.sdkCall, maxAttempts: 1 + maxRetries }, () => send<T>(routeId, input), {
      // Not an SvcApiError: fetch failed (network, connection reset), the request may or may not have arrived.
      isRetryable: (error) => retrySafe && (!(error instanceof SvcApiError) || isTransient(error)),
      requestedDelayMs: (error) => (error instanceof SvcApiError && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : null),
    });
  }

  async function send<T>(routeId: RouteId, { params = {}, query = {}, body, idempotencyKey }: CallInput): Promise<T> {
    const route = routes[routeId];
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
    const search = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();
    const headers: Record<string, string> = { authorization: `Bearer ${secretKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const res = await fetch(`${origin}${path}${search ? `?${search}` : ''}`, { method: route.method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const parsed = parseJson(text);
    if (!res.ok) {
      // A proxy in the way may answer in its own format: keep the status, show the start of what it said.
      const error = isErrorBody(parsed)
        ? parsed
        : { statusCode: res.status, error: res.statusText, message: text.slice(0, 200) || res.statusText, code: 'http_error', requestId: res.headers.get('request-id') ?? undefined };
      throw new SvcApiError(error, res.headers.get('retry-after'));
    }
    return parsed as T;
  }

  return {
    sessions: {
      /** Without an idempotencyKey the client makes one (a UUID), so its own retries cannot create twice. */
      create: (params: Api.CreateSessionParams, options: WriteOptions = {}) =>
        call<Api.Session>('createSession', { body: params, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID() }),
      get: (reference: string) => call<Api.Session>('getSession', { params: { reference } }),
      list: (params: Api.ListSessionsParams = {}) => call<Api.SessionList>('listSessions', { query: params }),
      expire: (reference: string) => call<Api.Session>('expireSession', { params: { reference } }),
      /** A pago móvil P2C reference the buyer sent another way (docs/pago-movil.md); one Idempotency-Key per submission (default: a UUID). */
      submitPagoMovilReference: (reference: string, params: Api.PagoMovilReferenceParams, options: WriteOptions = {}) =>
        call<Api.PagoMovilReferenceResult>('submitSessionPagoMovilReference', { params: { reference }, body: params, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID() }),
    },
    cards: {
      list: (params: Api.ListCardsParams = {}) => call<Api.CardList>('listCards', { query: params }),
      delete: (svcToken: string) => call<Api.Card>('deleteCard', { params: { svcToken } }),
    },
    charges: {
      /** A server-to-server charge of a stored card; pass one Idempotency-Key per intended charge (default: a UUID per call). */
      create: (params: Api.CreateChargeParams, options: WriteOptions = {}) =>
        call<Api.Transaction>('createCharge', { body: params, idempotencyKey: options.idempotencyKey ?? crypto.randomUUID() }),
    },
    transactions: {
      list: (params: Api.ListTransactionsParams = {}) => call<Api.TransactionList>('listTransactions', { query: params }),
      get: (reference: string) => call<Api.TransactionDetail>('getTransaction', { params: { reference } }),
    },
    refunds: {
      /**
       * Refunds `amountMinor` of an approved transaction (default: all that remains); pass one Idempotency-Key per
       * intended refund (default: a UUID per call). Resolves with status pending while the bank has not paid it out.
       */
      create: (transactionReference: string, params: Api.CreateRefundParams, options: WriteOptions = {}) =>
        call<Api.Refund>('createRefund', {
          params: { reference: transactionReference },
          body: params,
          idempotencyKey: options.idempotencyKey ?? crypto.randomUUID(),
        }),
      list: (transactionReference: string) => call<Api.RefundList>('listRefunds', { params: { reference: transactionReference } }),
    },
    payments: {
      /** One page of the payments list as CSV (the header line on the first); call again with nextCursor until hasMore is false. */
      export: (params: Api.ExportPaymentsParams = {}) => call<Api.PaymentsExportPage>('exportPayments', { query: params }),
    },
    analytics: {
      summary: (params: Api.AnalyticsSummaryParams) => call<Api.AnalyticsSummary>('getAnalyticsSummary', { query: params }),
    },
    webhookEndpoints: {
      create: (params: Api.CreateWebhookEndpointParams) => call<Api.CreatedWebhookEndpoint>('createWebhookEndpoint', { body: params }),
      list: (params: Api.ListWebhookEndpointsParams = {}) => call<Api.WebhookEndpointList>('listWebhookEndpoints', { query: params }),
      get: (id: string) => call<Api.WebhookEndpoint>('getWebhookEndpoint', { params: { id } }),
      update: (id: string, params: Api.UpdateWebhookEndpointParams) => call<Api.WebhookEndpoint>('updateWebhookEndpoint', { params: { id }, body: params }),
      delete: (id: string) => call<Api.DeletedWebhookEndpoint>('deleteWebhookEndpoint', { params: { id } }),
      /** Sends a sample event (default webhook.test) to this endpoint only; samples carry data.sample true. */
      test: (id: string, params: Api.TestWebhookEndpointParams = {}) => call<Api.WebhookTestResult>('testWebhookEndpoint', { params: { id }, query: params }),
    },
    webhookDeliveries: {
      list: (params: Api.ListWebhookDeliveriesParams = {}) => call<Api.WebhookDeliveryList>('listWebhookDeliveries', { query: params }),
      get: (id: string) => call<Api.WebhookDelivery>('getWebhookDelivery', { params: { id } }),
      retry: (id: string) => call<Api.WebhookDelivery>('retryWebhookDelivery', { params: { id } }),
    },
  };
}

export type SvcClient = ReturnType<typeof createSvcClient>;

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** Worth sending again: the key's first request still running, rate limited, or the server's fault. */
const isTransient = (error: SvcApiError) => error.status === 429 || error.status >= 500 || (error.status === 409 && error.code === 'idempotency_in_progress');

const isErrorBody = (value: unknown): value is Api.ApiErrorBody =>
  typeof value === 'object' && value !== null && typeof (value as Api.ApiErrorBody).code === 'string' && typeof (value as Api.ApiErrorBody).statusCode === 'number';
