/**
 * The route manifest: the one list of /v1 operations. The CDK stack makes one Lambda and one API Gateway
 * method per entry; the sandbox serves the same entries by invoking the same handler modules.
 */
import type { OperationClass } from './domain/merchant.ts';
import type { FunctionNeed } from './function-needs.ts';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** API Gateway resource path, with {parameters}. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler` (Lambda) and `build` (sandbox). */
  entry: string;
  /**
   * secret: sk_/rk_ keys. checkout: the buyer's browser, authorised by the session reference (path or body) and,
   * when sent, a publishable key (pk_) of the session's merchant and mode. public: no key (the OpenAPI document).
   */
  auth: 'secret' | 'checkout' | 'public';
  /** write routes are refused to read-only (rk_) keys. */
  access: 'read' | 'write';
  /**
   * The table access the function is granted, when it differs from `access` (what the key must be allowed): a read
   * that settles what it reads writes the table, yet stays open to read-only keys.
   */
  tableAccess?: 'read' | 'write';
  rateClass: OperationClass | null;
  idempotency: 'required' | 'optional' | 'none';
  summary: string;
  /** Keys and banks the handler uses beyond the table; the stack grants exactly these (shared/function-needs.ts). */
  needs?: readonly FunctionNeed[];
}

/** Whether the route's function may write the table (the stack's grant), whatever its keys. */
export const writesTable = (route: RouteDefinition): boolean => (route.tableAccess ?? route.access) === 'write';

export const routes = {
  createSession: {
    method: 'POST',
    path: '/v1/sessions',
    entry: 'functions/sessions/create-session.ts',
    auth: 'secret',
    access: 'write',
    rateClass: 'sessions',
    idempotency: 'optional',
    summary: 'Create a payment session',
  },
  getSession: {
    method: 'GET',
    path: '/v1/sessions/{reference}',
    entry: 'functions/sessions/get-session.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'Retrieve a payment session',
  },
  listSessions: {
    method: 'GET',
    path: '/v1/sessions',
    entry: 'functions/sessions/list-sessions.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'List payment sessions, newest first',
  },
  expireSession: {
    method: 'POST',
    path: '/v1/sessions/{reference}/expire',
    entry: 'functions/sessions/expire-session.ts',
    auth: 'secret',
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'Close a payment session now',
    needs: ['secrets', 'gateways'],
  },
  getCheckoutSession: {
    method: 'GET',
    path: '/v1/checkout/sessions/{reference}',
    entry: 'functions/checkout/get-checkout-session.ts',
    auth: 'checkout',
    // It writes: it settles stale attempts and opens the USD processor's pending payment.
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'What the checkout page shows for a session',
    needs: ['secrets', 'gateways'],
  },
  createCheckoutCharge: {
    method: 'POST',
    path: '/v1/checkout/charge',
    entry: 'functions/checkout/create-charge.ts',
    auth: 'checkout',
    access: 'write',
    rateClass: 'charge',
    idempotency: 'required',
    summary: 'Charge a card for a session, from the checkout',
    needs: ['secrets', 'cardNumbers', 'fingerprints', 'gateways'],
  },
  confirmCheckoutOtp: {
    method: 'POST',
    path: '/v1/checkout/otp',
    entry: 'functions/checkout/confirm-otp.ts',
    auth: 'checkout',
    access: 'write',
    rateClass: null,
    idempotency: 'optional',
    summary: 'Confirm a charge with the OTP the bank sent to the buyer',
    needs: ['secrets', 'gateways'],
  },
  getMerchantLogo: {
    method: 'GET',
    path: '/v1/checkout/logos/{merchantId}/{hash}',
    entry: 'functions/checkout/get-merchant-logo.ts',
    // An <img> on the checkout page: no key, cacheable (the hash in the path changes with the image).
    auth: 'public',
    access: 'read',
    rateClass: null,
    idempotency: 'none',
    summary: "The merchant's logo shown on the checkout page",
  },
  listTransactions: {
    method: 'GET',
    path: '/v1/transactions',
    entry: 'functions/transactions/list-transactions.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'List transactions, newest first',
  },
  getTransaction: {
    method: 'GET',
    path: '/v1/transactions/{reference}',
    entry: 'functions/transactions/get-transaction.ts',
    auth: 'secret',
    access: 'read',
    // It writes: it settles a server-to-server charge the bank left pending, from the bank's record.
    tableAccess: 'write',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'Retrieve a transaction with its technical reason and trace',
    needs: ['secrets', 'gateways'],
  },
  listCards: {
    method: 'GET',
    path: '/v1/cards',
    entry: 'functions/cards/list-cards.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'List stored cards, optionally of one customer; deleted cards are not listed',
  },
  deleteCard: {
    method: 'DELETE',
    path: '/v1/cards/{svcToken}',
    entry: 'functions/cards/delete-card.ts',
    auth: 'secret',
    // Refused to read-only keys, yet counted as a read (spec: Limits).
    access: 'write',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'Delete a stored card (logical delete; card.deleted once)',
  },
  createCharge: {
    method: 'POST',
    path: '/v1/charges',
    entry: 'functions/charges/create-charge.ts',
    auth: 'secret',
    access: 'write',
    rateClass: 'charge',
    idempotency: 'required',
    summary: 'Charge a stored card server to server, on a gateway that needs no CVV',
    needs: ['secrets', 'cardNumbers', 'gateways'],
  },
  getAnalyticsSummary: {
    method: 'GET',
    path: '/v1/analytics/summary',
    entry: 'functions/analytics/get-analytics-summary.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'Counts, approved volume and approval rate of live transactions over a date range',
  },
  createWebhookEndpoint: {
    method: 'POST',
    path: '/v1/webhooks/endpoints',
    entry: 'functions/webhooks/create-webhook-endpoint.ts',
    auth: 'secret',
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'Register a webhook endpoint; its signing secret is shown once',
    needs: ['secrets'],
  },
  listWebhookEndpoints: {
    method: 'GET',
    path: '/v1/webhooks/endpoints',
    entry: 'functions/webhooks/list-webhook-endpoints.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'List webhook endpoints',
  },
  getWebhookEndpoint: {
    method: 'GET',
    path: '/v1/webhooks/endpoints/{id}',
    entry: 'functions/webhooks/get-webhook-endpoint.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'Retrieve a webhook endpoint',
  },
  updateWebhookEndpoint: {
    method: 'PATCH',
    path: '/v1/webhooks/endpoints/{id}',
    entry: 'functions/webhooks/update-webhook-endpoint.ts',
    auth: 'secret',
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'Update URL, events, status or authentication of a webhook endpoint',
    needs: ['secrets'],
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    path: '/v1/webhooks/endpoints/{id}',
    entry: 'functions/webhooks/delete-webhook-endpoint.ts',
    auth: 'secret',
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'Delete a webhook endpoint (its delivery history is kept)',
  },
  testWebhookEndpoint: {
    method: 'POST',
    path: '/v1/webhooks/endpoints/{id}/test',
    entry: 'functions/webhooks/test-webhook-endpoint.ts',
    auth: 'secret',
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'Queue a signed webhook.test event to this endpoint',
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/v1/webhooks/deliveries',
    entry: 'functions/webhooks/list-webhook-deliveries.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'List webhook deliveries, newest first',
  },
  getWebhookDelivery: {
    method: 'GET',
    path: '/v1/webhooks/deliveries/{id}',
    entry: 'functions/webhooks/get-webhook-delivery.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'Retrieve a webhook delivery with its attempts',
  },
  retryWebhookDelivery: {
    method: 'POST',
    path: '/v1/webhooks/deliveries/{id}/retry',
    entry: 'functions/webhooks/retry-webhook-delivery.ts',
    auth: 'secret',
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'Send a webhook delivery again now',
  },
  getOpenApiDocument: {
    method: 'GET',
    path: '/v1/openapi.json',
    entry: 'functions/openapi/get-openapi-document.ts',
    auth: 'public',
    access: 'read',
    rateClass: null,
    idempotency: 'none',
    summary: 'The OpenAPI 3.1 document of this API',
  },
} as const satisfies Record<string, RouteDefinition>;

export type RouteId = keyof typeof routes;
export const routeIds = Object.keys(routes) as RouteId[];
