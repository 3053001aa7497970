/**
 * What each operation answers (success bodies by status, media type, the error statuses it adds), for the OpenAPI
 * document only: no route's Lambda bundle imports this module, so these schemas and texts stay out of them. The
 * document joins it to each handler's input schemas (load-route-schemas.ts); every route must have its entry.
 */
import * as z from 'zod';
import type { RouteId } from '../routes.ts';
import type { ResponseSchemas } from './response-schemas.ts';
import { LOGO_CONTENT_TYPES } from '../domain/merchant-branding.ts';
import { LAST_ADMIN_ERRORS } from '../dashboard/errors.ts';
import { CardListSchema, CardSchema, ServerChargeSchema } from '../schemas/card-responses.ts';
import { CheckoutChargeResultSchema, CheckoutSessionSchema, P2cReferenceResultSchema, PaymentKeyResultSchema } from '../schemas/checkout-responses.ts';
import { AuditLogSchema, CreatedUserSchema, DeletedUserSchema, KeyListSchema, KeyResultSchema, MeSchema, MfaEnrolmentSchema, MfaStateSchema, OverviewSchema, PaymentDetailSchema, PaymentListSchema, RolledKeySchema, SettingsSchema, SignInResultSchema, SignedOutSchema, UserListSchema, UserResultSchema } from '../schemas/dashboard-responses.ts';
import { PaymentsExportPageSchema } from '../schemas/payment-export-responses.ts';
import { RefundListSchema, RefundSchema } from '../schemas/refund-responses.ts';
import { SessionListSchema, SessionSchema } from '../schemas/session-responses.ts';
import { AnalyticsSummarySchema, TransactionDetailSchema, TransactionListSchema } from '../schemas/transaction-responses.ts';
import { CreatedWebhookEndpointSchema, DeletedWebhookEndpointSchema, WebhookDeliveryListSchema, WebhookDeliverySchema, WebhookEndpointListSchema, WebhookEndpointSchema, WebhookTestResultSchema } from '../schemas/webhook-responses.ts';

const LogoSchema = z.string().meta({ format: 'binary', description: `The image: ${LOGO_CONTENT_TYPES.join(', ')}.` });
const LoadedSchema = z.object({ gateway: z.string(), loaded: z.literal(true) });
const OpenApiDocumentSchema = z.looseObject({ openapi: z.literal('3.1.0') }).meta({ id: 'OpenApiDocument', description: 'This document.' });

/** What both P2C reference routes refuse. */
const P2C_REFERENCE_ERRORS = {
  400: 'invalid_request (reference, bankCode, phone or paidOn: `field` says which), payment_method_unavailable (the session does not take pago_movil_p2c). Not an attempt: nothing changed.',
  409: 'pago_movil_reference_limit (3 references per session; a re-check of one is not counted), session_completed, attempts_exhausted, charge_in_flight, test_mode_off, test_mode_unsupported, bank_credentials_missing.',
  410: 'session_expired: closed by time or by the merchant.',
};

export const OPERATION_RESPONSES: Record<RouteId, ResponseSchemas> = {
  getAnalyticsSummary: { success: { 200: AnalyticsSummarySchema } },
  exportPayments: { success: { 200: PaymentsExportPageSchema } },
  deleteCard: { success: { 200: CardSchema }, errors: { 404: 'resource_missing: no card with this token in the merchant and mode.' } },
  listCards: { success: { 200: CardListSchema } },
  createCharge: {
      success: { 200: ServerChargeSchema, 202: ServerChargeSchema },
      errors: {
        404: 'resource_missing: svcToken is not an active card of this merchant and mode.',
        409: 'test_mode_off, test_mode_unsupported, card_flow_unsupported (the card needs its CVV: use a session with cardToken), customer_mismatch, authentication_required (the customer must pay once with the card), bank_credentials_missing.',
      },
    },
  confirmCheckoutOtp: {
      success: { 200: CheckoutChargeResultSchema, 202: CheckoutChargeResultSchema },
      errors: {
        404: 'resource_missing: no such transaction on this session.',
        409: 'otp_not_requested, session_completed, attempts_exhausted, charge_in_flight.',
        410: 'session_expired.',
        422: 'otp_invalid: wrong code (field code), or the bank refused the code or the account type (no field); the message says how many entries remain.',
        503: 'processor_unavailable: the bank could not check the code; nothing changed, retry.',
      },
    },
  createCheckoutCharge: {
      // 200: the attempt has a result (approved, declined or failed); 202: pending (an OTP, or the bank is late).
      success: { 200: CheckoutChargeResultSchema, 202: CheckoutChargeResultSchema },
      errors: {
        400: 'invalid_payment_data: the card or document cannot be used (`field` says which); an attempt that counts as a failure.',
        409: 'session_completed, attempts_exhausted, charge_in_flight, test_mode_off, test_mode_unsupported, bank_credentials_missing, card_unavailable (the stored card of the session was deleted).',
        410: 'session_expired: closed by time or by the merchant.',
      },
    },
  requestPagoMovilKey: {
      success: { 200: PaymentKeyResultSchema },
      errors: {
        400: 'invalid_request (bankCode, phone, documentType or documentId: `field` says which), payment_method_unavailable (the session does not take pago_movil_c2p). Nothing changed.',
        409: 'session_completed, attempts_exhausted, charge_in_flight, test_mode_off, test_mode_unsupported, bank_credentials_missing.',
        410: 'session_expired.',
        422: "payment_key_refused: the payer's bank refused to send a key; the message is its Spanish reason for the buyer.",
        503: "processor_unavailable: the bank could not be asked; retry.",
      },
    },
  createPagoMovilCharge: {
      success: { 200: CheckoutChargeResultSchema, 202: CheckoutChargeResultSchema },
      errors: {
        400: 'invalid_request (bankCode, phone, documentType, documentId or key: `field` says which), payment_method_unavailable (the session does not take pago_movil_c2p). Not an attempt: nothing changed.',
        409: 'session_completed, attempts_exhausted, charge_in_flight, test_mode_off, test_mode_unsupported, bank_credentials_missing.',
        410: 'session_expired: closed by time or by the merchant.',
      },
    },
  submitPagoMovilReference: {
      success: { 200: CheckoutChargeResultSchema, 202: CheckoutChargeResultSchema },
      errors: P2C_REFERENCE_ERRORS,
    },
  submitSessionPagoMovilReference: {
      success: { 200: P2cReferenceResultSchema, 202: P2cReferenceResultSchema },
      errors: { ...P2C_REFERENCE_ERRORS, 404: 'resource_missing: no session of yours with that reference in this mode.' },
    },
  getCheckoutSession: { success: { 200: CheckoutSessionSchema } },
  getMerchantLogo: { success: { 200: LogoSchema }, mediaType: 'image/*', errors: { 404: 'resource_missing: no such logo (replaced, removed, or never uploaded)' } },
  confirmDashboardMfaEnrolment: { success: { 200: MfaStateSchema }, errors: { 400: 'incorrect_mfa_code or mfa_enrolment_expired: enter the current code, or start again.', 409: 'mfa_already_enabled: turned on meanwhile.' } },
  dashboardMfa: { success: { 200: SignInResultSchema }, errors: { 400: 'mfa_code_already_used: a right code used already; enter the next code the app shows, with the same challengeSession.' } },
  createTestModeRequest: { success: { 202: SettingsSchema }, errors: { 409: 'test_mode_unsupported: the gateway has no test environment.' } },
  createDashboardUser: { success: { 201: CreatedUserSchema }, errors: { 409: 'user_exists: the email is already one of this merchant\'s users.' } },
  deleteDashboardUser: { success: { 200: DeletedUserSchema }, errors: { 404: 'resource_missing', 409: LAST_ADMIN_ERRORS } },
  disableDashboardMfa: { success: { 200: MfaStateSchema }, errors: { 400: 'incorrect_password, incorrect_mfa_code, or mfa_code_already_used (wait for the next code).', 409: 'mfa_not_enabled: MFA is off already.' } },
  getDashboardMe: { success: { 200: MeSchema } },
  getDashboardMfa: { success: { 200: MfaStateSchema } },
  getDashboardOverview: { success: { 200: OverviewSchema } },
  getDashboardPayment: { success: { 200: PaymentDetailSchema }, errors: { 404: 'resource_missing' } },
  getDashboardSettings: { success: { 200: SettingsSchema } },
  listAuditLog: { success: { 200: AuditLogSchema } },
  listDashboardKeys: { success: { 200: KeyListSchema } },
  listDashboardPayments: { success: { 200: PaymentListSchema } },
  listDashboardUsers: { success: { 200: UserListSchema } },
  putDashboardBankCredentials: {
      success: { 200: LoadedSchema },
      errors: { 400: "credentials_invalid: a field the gateway's connector needs is missing, unknown or invalid (`field` names it, its value is never quoted)." },
    },
  revokeDashboardKey: { success: { 200: KeyResultSchema }, errors: { 404: 'resource_missing' } },
  rollDashboardKey: { success: { 201: RolledKeySchema }, errors: { 404: 'resource_missing', 409: 'key_revoked: the key is already revoked (nothing to roll).' } },
  rotateWebhookSecret: { success: { 200: CreatedWebhookEndpointSchema }, errors: { 404: 'resource_missing', 409: 'endpoint_changed' } },
  dashboardNewPassword: { success: { 200: SignInResultSchema } },
  dashboardSignIn: { success: { 200: SignInResultSchema } },
  dashboardSignOut: { success: { 200: SignedOutSchema } },
  startDashboardMfaEnrolment: { success: { 200: MfaEnrolmentSchema }, errors: { 400: 'incorrect_password: the password is not the account\'s.', 409: 'mfa_already_enabled: turn it off first.' } },
  updateDashboardSettings: { success: { 200: SettingsSchema } },
  updateDashboardUser: { success: { 200: UserResultSchema }, errors: { 404: 'resource_missing', 409: LAST_ADMIN_ERRORS } },
  getOpenApiDocument: { success: { 200: OpenApiDocumentSchema } },
  createRefund: {
      success: { 200: RefundSchema, 202: RefundSchema },
      errors: {
        400: 'refund_amount_exceeds_remaining: amountMinor is more than remains to refund.',
        404: 'resource_missing: no such transaction in this merchant and mode.',
        409: 'transaction_not_refundable (not approved), already_refunded (nothing remains), refund_unsupported (the gateway\'s network offers no card refund, e.g. Banco Mercantil), refund_conflict (parallel refunds kept writing first: retry with the same key), test_mode_off, bank_credentials_missing.',
      },
    },
  listRefunds: { success: { 200: RefundListSchema }, errors: { 404: 'resource_missing: no such transaction in this merchant and mode.' } },
  createSession: {
      success: { 201: SessionSchema },
      errors: {
        404: 'resource_missing: cardToken is not a card of this merchant and mode, or it was deleted.',
        409: 'merchant_not_provisioned, test_mode_off, test_mode_unsupported, card_flow_unsupported, customer_mismatch (customerRef is not the cardToken\'s customer).',
      },
    },
  expireSession: {
      success: { 200: SessionSchema },
      errors: {
        404: 'resource_missing: no such session in this merchant.',
        409: 'mode_mismatch, session_completed, charge_in_flight, processor_already_charged.',
        503: 'processor_cancellation_failed: the USD processor could not cancel the pending payment; nothing changed, retry.',
      },
    },
  getSession: { success: { 200: SessionSchema }, errors: { 404: 'resource_missing: no such session in this merchant and mode.' } },
  listSessions: { success: { 200: SessionListSchema } },
  getTransaction: { success: { 200: TransactionDetailSchema }, errors: { 404: 'resource_missing: no such transaction in this merchant and mode.' } },
  listTransactions: { success: { 200: TransactionListSchema } },
  createWebhookEndpoint: { success: { 201: CreatedWebhookEndpointSchema }, errors: { 409: 'endpoint_limit_reached.' } },
  deleteWebhookEndpoint: { success: { 200: DeletedWebhookEndpointSchema }, errors: { 404: 'resource_missing.' } },
  getWebhookDelivery: { success: { 200: WebhookDeliverySchema }, errors: { 404: 'resource_missing.' } },
  getWebhookEndpoint: { success: { 200: WebhookEndpointSchema }, errors: { 404: 'resource_missing.' } },
  listWebhookDeliveries: { success: { 200: WebhookDeliveryListSchema } },
  listWebhookEndpoints: { success: { 200: WebhookEndpointListSchema } },
  retryWebhookDelivery: { success: { 202: WebhookDeliverySchema }, errors: { 404: 'resource_missing.', 409: 'endpoint_deleted, endpoint_disabled.' } },
  testWebhookEndpoint: { success: { 202: WebhookTestResultSchema }, errors: { 404: 'resource_missing.' } },
  updateWebhookEndpoint: { success: { 200: WebhookEndpointSchema }, errors: { 404: 'resource_missing.', 409: 'endpoint_changed: changed or deleted meanwhile; read it again and retry.' } },
};
