/**
 * The route manifest: the one list of /v1 operations, one export per route (its id). The CDK stack makes one Lambda
 * and one API Gateway method per entry; the sandbox serves the same entries by invoking the same handler modules.
 * A handler module imports this module as a namespace and names its own entry (`manifest.createSession`), so its
 * bundle holds that entry only (esbuild drops the others); shared/routes.ts is the whole table, for the stack, the
 * sandbox and the OpenAPI document.
 */
import type { RouteDefinition } from './routes.ts';

export const createSession = {
  id: 'createSession',
  method: 'POST',
  path: '/v1/sessions',
  entry: 'functions/sessions/create-session.ts',
  auth: 'secret',
  access: 'write',
  rateClass: 'sessions',
  idempotency: 'optional',
} as const satisfies RouteDefinition;

export const getSession = {
  id: 'getSession',
  method: 'GET',
  path: '/v1/sessions/{reference}',
  entry: 'functions/sessions/get-session.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const listSessions = {
  id: 'listSessions',
  method: 'GET',
  path: '/v1/sessions',
  entry: 'functions/sessions/list-sessions.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const expireSession = {
  id: 'expireSession',
  method: 'POST',
  path: '/v1/sessions/{reference}/expire',
  entry: 'functions/sessions/expire-session.ts',
  auth: 'secret',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['secrets', 'gateways'],
} as const satisfies RouteDefinition;

export const submitSessionPagoMovilReference = {
  id: 'submitSessionPagoMovilReference',
  method: 'POST',
  path: '/v1/sessions/{reference}/pago-movil-reference',
  entry: 'functions/sessions/submit-pago-movil-reference.ts',
  auth: 'secret',
  access: 'write',
  rateClass: 'charge',
  idempotency: 'required',
  needs: ['secrets', 'gateways'],
  sendsTo: ['sessionExpiry'],
} as const satisfies RouteDefinition;

export const getCheckoutSession = {
  id: 'getCheckoutSession',
  method: 'GET',
  path: '/v1/checkout/sessions/{reference}',
  entry: 'functions/checkout/get-checkout-session.ts',
  auth: 'checkout',
  // It writes: it settles stale attempts and opens the USD processor's pending payment.
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['secrets', 'gateways'],
} as const satisfies RouteDefinition;

export const createCheckoutCharge = {
  id: 'createCheckoutCharge',
  method: 'POST',
  path: '/v1/checkout/charge',
  entry: 'functions/checkout/create-charge.ts',
  auth: 'checkout',
  access: 'write',
  rateClass: 'charge',
  idempotency: 'required',
  needs: ['secrets', 'cardNumbers', 'fingerprints', 'gateways'],
  cardData: true,
} as const satisfies RouteDefinition;

export const requestPagoMovilKey = {
  id: 'requestPagoMovilKey',
  method: 'POST',
  path: '/v1/checkout/pago-movil/key',
  entry: 'functions/checkout/request-pago-movil-key.ts',
  auth: 'checkout',
  access: 'write',
  // Counted as the checkout charge is; each request also sends the buyer an SMS, bounded per session and phone.
  rateClass: 'charge',
  idempotency: 'none',
  needs: ['secrets', 'fingerprints', 'gateways'],
} as const satisfies RouteDefinition;

export const createPagoMovilCharge = {
  id: 'createPagoMovilCharge',
  method: 'POST',
  path: '/v1/checkout/pago-movil/charge',
  entry: 'functions/checkout/create-pago-movil-charge.ts',
  auth: 'checkout',
  access: 'write',
  rateClass: 'charge',
  idempotency: 'required',
  needs: ['secrets', 'fingerprints', 'gateways'],
  // The payment key is handled as a CVV: the idempotency hash of the body is keyed.
  cardData: true,
} as const satisfies RouteDefinition;

export const submitPagoMovilReference = {
  id: 'submitPagoMovilReference',
  method: 'POST',
  path: '/v1/checkout/pago-movil/reference',
  entry: 'functions/checkout/submit-pago-movil-reference.ts',
  auth: 'checkout',
  access: 'write',
  rateClass: 'charge',
  idempotency: 'required',
  needs: ['secrets', 'gateways'],
  // A reference still not found is searched again by the timed expiry worker.
  sendsTo: ['sessionExpiry'],
} as const satisfies RouteDefinition;

export const confirmCheckoutOtp = {
  id: 'confirmCheckoutOtp',
  method: 'POST',
  path: '/v1/checkout/otp',
  entry: 'functions/checkout/confirm-otp.ts',
  auth: 'checkout',
  access: 'write',
  // Counted as the checkout charge is: the session's own budget first, then the merchant's charge class.
  rateClass: 'charge',
  idempotency: 'optional',
  // A bank that takes the card again with the code (Mercantil debit) gets the CVV here and the sealed number opened.
  cardData: true,
  needs: ['secrets', 'cardNumbers', 'fingerprints', 'gateways'],
} as const satisfies RouteDefinition;

export const getMerchantLogo = {
  id: 'getMerchantLogo',
  method: 'GET',
  path: '/v1/checkout/logos/{merchantId}/{hash}',
  entry: 'functions/checkout/get-merchant-logo.ts',
  // An <img> on the checkout page: no key, cacheable (the hash in the path changes with the image).
  auth: 'public',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
} as const satisfies RouteDefinition;

export const listTransactions = {
  id: 'listTransactions',
  method: 'GET',
  path: '/v1/transactions',
  entry: 'functions/transactions/list-transactions.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const getTransaction = {
  id: 'getTransaction',
  method: 'GET',
  path: '/v1/transactions/{reference}',
  entry: 'functions/transactions/get-transaction.ts',
  auth: 'secret',
  access: 'read',
  // It writes: it settles a server-to-server charge the bank left pending, from the bank's record.
  tableAccess: 'write',
  rateClass: 'reads',
  idempotency: 'none',
  needs: ['secrets', 'gateways'],
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const createRefund = {
  id: 'createRefund',
  method: 'POST',
  path: '/v1/transactions/{reference}/refunds',
  entry: 'functions/refunds/create-refund.ts',
  auth: 'secret',
  access: 'write',
  rateClass: 'refunds',
  idempotency: 'required',
  needs: ['secrets', 'gateways'],
  dashboard: 'admin',
  // The transaction refunded; the answer names the refund.
  audit: { action: 'refund.created', param: 'reference' },
} as const satisfies RouteDefinition;

export const exportPayments = {
  id: 'exportPayments',
  method: 'GET',
  path: '/v1/payments/export',
  entry: 'functions/payments/export-payments.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
  // A read, audited all the same: payment data leaves the service (who, which filters, how many rows).
  audit: { action: 'payments.exported' },
} as const satisfies RouteDefinition;

export const listRefunds = {
  id: 'listRefunds',
  method: 'GET',
  path: '/v1/transactions/{reference}/refunds',
  entry: 'functions/refunds/list-refunds.ts',
  auth: 'secret',
  access: 'read',
  // It writes: it settles a refund the bank left pending, from the bank's record.
  tableAccess: 'write',
  rateClass: 'reads',
  idempotency: 'none',
  needs: ['secrets', 'gateways'],
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const listCards = {
  id: 'listCards',
  method: 'GET',
  path: '/v1/cards',
  entry: 'functions/cards/list-cards.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const deleteCard = {
  id: 'deleteCard',
  method: 'DELETE',
  path: '/v1/cards/{svcToken}',
  entry: 'functions/cards/delete-card.ts',
  auth: 'secret',
  // Refused to read-only keys, yet counted as a read (spec: Limits).
  access: 'write',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'developer',
  audit: { action: 'card.deleted', param: 'svcToken' },
} as const satisfies RouteDefinition;

export const createCharge = {
  id: 'createCharge',
  method: 'POST',
  path: '/v1/charges',
  entry: 'functions/charges/create-charge.ts',
  auth: 'secret',
  access: 'write',
  rateClass: 'server_charges',
  idempotency: 'required',
  needs: ['secrets', 'cardNumbers', 'gateways'],
} as const satisfies RouteDefinition;

export const getAnalyticsSummary = {
  id: 'getAnalyticsSummary',
  method: 'GET',
  path: '/v1/analytics/summary',
  entry: 'functions/analytics/get-analytics-summary.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const createWebhookEndpoint = {
  id: 'createWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhooks/endpoints',
  entry: 'functions/webhooks/create-webhook-endpoint.ts',
  auth: 'secret',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['secrets'],
  dashboard: 'developer',
  audit: { action: 'webhook_endpoint.created' },
} as const satisfies RouteDefinition;

export const listWebhookEndpoints = {
  id: 'listWebhookEndpoints',
  method: 'GET',
  path: '/v1/webhooks/endpoints',
  entry: 'functions/webhooks/list-webhook-endpoints.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const getWebhookEndpoint = {
  id: 'getWebhookEndpoint',
  method: 'GET',
  path: '/v1/webhooks/endpoints/{id}',
  entry: 'functions/webhooks/get-webhook-endpoint.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const updateWebhookEndpoint = {
  id: 'updateWebhookEndpoint',
  method: 'PATCH',
  path: '/v1/webhooks/endpoints/{id}',
  entry: 'functions/webhooks/update-webhook-endpoint.ts',
  auth: 'secret',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['secrets'],
  dashboard: 'developer',
  audit: { action: 'webhook_endpoint.updated', param: 'id' },
} as const satisfies RouteDefinition;

export const deleteWebhookEndpoint = {
  id: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/v1/webhooks/endpoints/{id}',
  entry: 'functions/webhooks/delete-webhook-endpoint.ts',
  auth: 'secret',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'developer',
  audit: { action: 'webhook_endpoint.deleted', param: 'id' },
} as const satisfies RouteDefinition;

export const testWebhookEndpoint = {
  id: 'testWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhooks/endpoints/{id}/test',
  entry: 'functions/webhooks/test-webhook-endpoint.ts',
  auth: 'secret',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'developer',
  audit: { action: 'webhook.sample_sent', param: 'id', query: ['type'] },
  sendsTo: ['webhookDeliveries'],
} as const satisfies RouteDefinition;

export const listWebhookDeliveries = {
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhooks/deliveries',
  entry: 'functions/webhooks/list-webhook-deliveries.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const getWebhookDelivery = {
  id: 'getWebhookDelivery',
  method: 'GET',
  path: '/v1/webhooks/deliveries/{id}',
  entry: 'functions/webhooks/get-webhook-delivery.ts',
  auth: 'secret',
  access: 'read',
  rateClass: 'reads',
  idempotency: 'none',
  dashboard: 'read_only',
} as const satisfies RouteDefinition;

export const retryWebhookDelivery = {
  id: 'retryWebhookDelivery',
  method: 'POST',
  path: '/v1/webhooks/deliveries/{id}/retry',
  entry: 'functions/webhooks/retry-webhook-delivery.ts',
  auth: 'secret',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'developer',
  audit: { action: 'webhook_delivery.resent', param: 'id' },
  sendsTo: ['webhookDeliveries'],
} as const satisfies RouteDefinition;

export const dashboardSignIn = {
  id: 'dashboardSignIn',
  method: 'POST',
  path: '/v1/dashboard/auth/sign-in',
  entry: 'functions/dashboard/sign-in.ts',
  auth: 'public',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  internal: true,
} as const satisfies RouteDefinition;

export const dashboardMfa = {
  id: 'dashboardMfa',
  method: 'POST',
  path: '/v1/dashboard/auth/mfa',
  entry: 'functions/dashboard/confirm-mfa.ts',
  auth: 'public',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  internal: true,
} as const satisfies RouteDefinition;

export const dashboardNewPassword = {
  id: 'dashboardNewPassword',
  method: 'POST',
  path: '/v1/dashboard/auth/new-password',
  entry: 'functions/dashboard/set-new-password.ts',
  auth: 'public',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  internal: true,
} as const satisfies RouteDefinition;

export const getDashboardMe = {
  id: 'getDashboardMe',
  method: 'GET',
  path: '/v1/dashboard/me',
  entry: 'functions/dashboard/get-me.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'read_only',
  internal: true,
  beforeMfa: true,
} as const satisfies RouteDefinition;

export const dashboardSignOut = {
  id: 'dashboardSignOut',
  method: 'POST',
  path: '/v1/dashboard/auth/sign-out',
  entry: 'functions/dashboard/sign-out.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  dashboard: 'read_only',
  internal: true,
  beforeMfa: true,
} as const satisfies RouteDefinition;

export const getDashboardMfa = {
  id: 'getDashboardMfa',
  method: 'GET',
  path: '/v1/dashboard/me/mfa',
  entry: 'functions/dashboard/get-mfa.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  dashboard: 'read_only',
  internal: true,
  beforeMfa: true,
} as const satisfies RouteDefinition;

export const startDashboardMfaEnrolment = {
  id: 'startDashboardMfaEnrolment',
  method: 'POST',
  path: '/v1/dashboard/me/mfa/enrolment',
  entry: 'functions/dashboard/start-mfa-enrolment.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool', 'secrets'],
  dashboard: 'read_only',
  internal: true,
  beforeMfa: true,
} as const satisfies RouteDefinition;

export const confirmDashboardMfaEnrolment = {
  id: 'confirmDashboardMfaEnrolment',
  method: 'POST',
  path: '/v1/dashboard/me/mfa/enrolment/confirm',
  entry: 'functions/dashboard/confirm-mfa-enrolment.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool', 'secrets'],
  dashboard: 'read_only',
  internal: true,
  beforeMfa: true,
} as const satisfies RouteDefinition;

export const disableDashboardMfa = {
  id: 'disableDashboardMfa',
  method: 'POST',
  path: '/v1/dashboard/me/mfa/disable',
  entry: 'functions/dashboard/disable-mfa.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  dashboard: 'read_only',
  internal: true,
} as const satisfies RouteDefinition;

export const getDashboardOverview = {
  id: 'getDashboardOverview',
  method: 'GET',
  path: '/v1/dashboard/overview',
  entry: 'functions/dashboard/get-overview.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'read_only',
  internal: true,
} as const satisfies RouteDefinition;

export const listDashboardPayments = {
  id: 'listDashboardPayments',
  method: 'GET',
  path: '/v1/dashboard/payments',
  entry: 'functions/dashboard/list-payments.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'read_only',
  internal: true,
} as const satisfies RouteDefinition;

export const getDashboardPayment = {
  id: 'getDashboardPayment',
  method: 'GET',
  path: '/v1/dashboard/payments/{reference}',
  entry: 'functions/dashboard/get-payment.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'read_only',
  internal: true,
} as const satisfies RouteDefinition;

export const listDashboardKeys = {
  id: 'listDashboardKeys',
  method: 'GET',
  path: '/v1/dashboard/keys',
  entry: 'functions/dashboard/list-keys.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'developer',
  internal: true,
} as const satisfies RouteDefinition;

export const rollDashboardKey = {
  id: 'rollDashboardKey',
  method: 'POST',
  path: '/v1/dashboard/keys/{id}/roll',
  entry: 'functions/dashboard/roll-key.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'developer',
  internal: true,
} as const satisfies RouteDefinition;

export const revokeDashboardKey = {
  id: 'revokeDashboardKey',
  method: 'POST',
  path: '/v1/dashboard/keys/{id}/revoke',
  entry: 'functions/dashboard/revoke-key.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'developer',
  internal: true,
} as const satisfies RouteDefinition;

export const listDashboardUsers = {
  id: 'listDashboardUsers',
  method: 'GET',
  path: '/v1/dashboard/users',
  entry: 'functions/dashboard/list-users.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const createDashboardUser = {
  id: 'createDashboardUser',
  method: 'POST',
  path: '/v1/dashboard/users',
  entry: 'functions/dashboard/create-user.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const updateDashboardUser = {
  id: 'updateDashboardUser',
  method: 'PATCH',
  path: '/v1/dashboard/users/{id}',
  entry: 'functions/dashboard/update-user.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const deleteDashboardUser = {
  id: 'deleteDashboardUser',
  method: 'DELETE',
  path: '/v1/dashboard/users/{id}',
  entry: 'functions/dashboard/delete-user.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['userPool'],
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const getDashboardSettings = {
  id: 'getDashboardSettings',
  method: 'GET',
  path: '/v1/dashboard/settings',
  entry: 'functions/dashboard/get-settings.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'read_only',
  internal: true,
} as const satisfies RouteDefinition;

export const updateDashboardSettings = {
  id: 'updateDashboardSettings',
  method: 'PATCH',
  path: '/v1/dashboard/settings',
  entry: 'functions/dashboard/update-settings.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const putDashboardBankCredentials = {
  id: 'putDashboardBankCredentials',
  method: 'PUT',
  path: '/v1/dashboard/bank-credentials/{gateway}',
  entry: 'functions/dashboard/put-bank-credentials.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['secrets'],
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const createTestModeRequest = {
  id: 'createTestModeRequest',
  method: 'POST',
  path: '/v1/dashboard/test-mode-requests',
  entry: 'functions/dashboard/create-test-mode-request.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const listAuditLog = {
  id: 'listAuditLog',
  method: 'GET',
  path: '/v1/dashboard/audit-log',
  entry: 'functions/dashboard/list-audit-log.ts',
  auth: 'user',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
  dashboard: 'admin',
  internal: true,
} as const satisfies RouteDefinition;

export const rotateWebhookSecret = {
  id: 'rotateWebhookSecret',
  method: 'POST',
  path: '/v1/dashboard/webhook-endpoints/{id}/rotate-secret',
  entry: 'functions/dashboard/rotate-webhook-secret.ts',
  auth: 'user',
  access: 'write',
  rateClass: null,
  idempotency: 'none',
  needs: ['secrets'],
  dashboard: 'developer',
  internal: true,
} as const satisfies RouteDefinition;

export const getOpenApiDocument = {
  id: 'getOpenApiDocument',
  method: 'GET',
  path: '/v1/openapi.json',
  entry: 'functions/openapi/get-openapi-document.ts',
  auth: 'public',
  access: 'read',
  rateClass: null,
  idempotency: 'none',
} as const satisfies RouteDefinition;
