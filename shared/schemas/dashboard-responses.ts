/**
 * What the dashboard's own routes (docs/dashboard.md) answer. These routes are internal (left out of the public
 * OpenAPI document), yet held to these schemas: test/dashboard/api/responses.test.ts checks real answers against
 * them, and the dashboard page's types are derived from them (dashboard/src/types.ts). Like the public API's, they
 * are not used at run time: only shared/openapi/operation-responses.ts imports them, so no Lambda bundle holds them.
 */
import * as z from 'zod';
import { AUDIT_ACTIONS } from '../domain/audit-entry.ts';
import { CURRENCIES, GATEWAY_IDS } from '../domain/merchant.ts';
import { ROLES } from '../domain/roles.ts';
import { TRANSACTION_STATUSES } from '../domain/transaction.ts';
import { SessionSchema } from './session-responses.ts';
import { TransactionDetailSchema } from './transaction-responses.ts';
import { WebhookDeliverySchema } from './webhook-responses.ts';

export const DashboardUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  merchantId: z.string(),
  createdAt: z.string(),
});

export const SignInResultSchema = z.union([
  z.object({ token: z.string(), expiresAt: z.string(), user: DashboardUserSchema }),
  z.object({ challenge: z.enum(['mfa', 'new_password']), challengeSession: z.string() }),
]);

export const MeSchema = z.object({
  user: DashboardUserSchema,
  merchant: z.object({ id: z.string(), name: z.string(), businessName: z.string().nullable() }),
  /** An admin whose sign-in had no authenticator app's code: only enrolling one is open until it is done. */
  mfaRequired: z.boolean(),
});

export const SignedOutSchema = z.object({ signedOut: z.literal(true) });

/** Two-step verification of the signed-in user's own account. */
export const MfaStateSchema = z.object({ enabled: z.boolean() });
export const MfaEnrolmentSchema = z.object({ secret: z.string(), otpauthUri: z.string(), enrolmentSession: z.string(), expiresAt: z.string() });

export const UserListSchema = z.object({ data: z.array(DashboardUserSchema) });
export const CreatedUserSchema = z.object({ user: DashboardUserSchema, temporaryPassword: z.string().optional() });
export const DeletedUserSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export const UserResultSchema = z.object({ user: DashboardUserSchema });

export const ApiKeySummarySchema = z.object({
  id: z.string(),
  kind: z.enum(['secret', 'publishable', 'restricted']),
  mode: z.enum(['test', 'live']),
  prefix: z.string(),
  last4: z.string(),
  status: z.enum(['active', 'revoked']),
  createdAt: z.string(),
});
export const KeyListSchema = z.object({ data: z.array(ApiKeySummarySchema) });
export const RolledKeySchema = z.object({ key: ApiKeySummarySchema, secret: z.string() });
export const KeyResultSchema = z.object({ key: ApiKeySummarySchema });

export const TestModeRequestSchema = z.object({
  enabled: z.boolean(),
  status: z.enum(['pending', 'approved', 'refused']),
  requestedAt: z.string(),
  requestedBy: z.string(),
  decidedAt: z.string().nullable(),
});
export const SettingsSchema = z.object({
  businessName: z.string().nullable(),
  logoUrl: z.string().nullable(),
  gateways: z.record(z.enum(CURRENCIES), z.enum(GATEWAY_IDS)),
  /** loadedAt: when the credentials were last loaded; null when not loaded (or loaded before dates were kept). */
  credentials: z.record(z.enum(GATEWAY_IDS), z.object({ loaded: z.boolean(), loadedAt: z.string().nullable() })),
  testMode: z.record(z.enum(GATEWAY_IDS), z.object({ state: z.enum(['on', 'off']), supported: z.boolean(), request: TestModeRequestSchema.nullable() })),
});

export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  userId: z.string(),
  email: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string(),
  /** What changed, never a secret: { kind, mode, old, new } for a key roll, { email, from, to } for a role change… */
  detail: z.record(z.string(), z.unknown()),
});
export const AuditLogSchema = z.object({ data: z.array(AuditEntrySchema), hasMore: z.boolean(), nextCursor: z.string().nullable() });

export const PaymentRowSchema = z.object({
  kind: z.enum(['session', 'charge']),
  reference: z.string(),
  sessionReference: z.string().nullable(),
  transactionReference: z.string().nullable(),
  customerRef: z.string().nullable(),
  lastFour: z.string().nullable(),
  brand: z.string().nullable(),
  amountMinor: z.int(),
  currency: z.string(),
  status: z.string(),
  test: z.boolean(),
  createdAt: z.string(),
});
export const PaymentListSchema = z.object({ data: z.array(PaymentRowSchema), hasMore: z.boolean(), nextCursor: z.string().nullable() });
/** A payment's page: its session (null for a server-to-server charge), every attempt, the deliveries of its events. */
export const PaymentDetailSchema = z.object({
  session: SessionSchema.nullable(),
  transactions: z.array(TransactionDetailSchema),
  deliveries: z.array(WebhookDeliverySchema),
});

const FiguresSchema = z.object({ approvedAmountMinor: z.int(), approvalRate: z.number().nullable(), count: z.int() });
export const OverviewSchema = z.object({
  currencies: z.array(
    z.object({
      currency: z.enum(CURRENCIES),
      today: FiguresSchema,
      last30Days: FiguresSchema,
      daily: z.array(z.object({ date: z.string(), approvedAmountMinor: z.int(), approved: z.int(), declined: z.int(), failed: z.int() })),
    }),
  ),
  recentFailures: z.array(
    z.object({
      reference: z.string(),
      sessionReference: z.string().nullable(),
      status: z.enum(TRANSACTION_STATUSES),
      amountMinor: z.int(),
      currency: z.enum(CURRENCIES),
      errorCode: z.string().nullable(),
      declineReason: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
