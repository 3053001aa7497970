/**
 * The dashboard's own routes (docs/dashboard.md): inputs validated here, answers described here. These routes are
 * internal (left out of the public OpenAPI document), yet held to the same schemas.
 */
import * as z from 'zod';
import { AUDIT_ACTIONS } from '../domain/audit-entry.ts';
import { ROLES } from '../domain/roles.ts';
import { CURRENCIES, GATEWAY_IDS } from '../domain/merchant.ts';
import { queryInt } from './common.ts';

const email = z.string().trim().min(3).max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'must be an email address' });

export const SignInBodySchema = z.strictObject({ email, password: z.string().min(1).max(256) });
const mfaCode = z.string().regex(/^\d{6}$/, { error: 'must be the 6 digits your app shows' });
export const MfaBodySchema = z.strictObject({ challengeSession: z.string().min(1).max(4096), code: mfaCode });
export const NewPasswordBodySchema = z.strictObject({ challengeSession: z.string().min(1).max(4096), newPassword: z.string().min(1).max(256) });

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

/** Two-step verification of the signed-in user's own account (docs/dashboard.md). */
export const MfaStateSchema = z.object({ enabled: z.boolean() });
export const StartMfaEnrolmentBodySchema = z.strictObject({ password: z.string().min(1).max(256) });
export const MfaEnrolmentSchema = z.object({ secret: z.string(), otpauthUri: z.string(), enrolmentSession: z.string(), expiresAt: z.string() });
export const ConfirmMfaEnrolmentBodySchema = z.strictObject({ enrolmentSession: z.string().min(1).max(8192), code: mfaCode });
export const DisableMfaBodySchema = z.strictObject({ password: z.string().min(1).max(256), code: mfaCode });

export const CreateUserBodySchema = z.strictObject({ email, role: z.enum(ROLES) });
export const UpdateUserBodySchema = z.strictObject({ role: z.enum(ROLES) });
export const UserIdParamsSchema = z.strictObject({ id: z.string().regex(/^usr_[0-9A-Za-z]{1,64}$/, { error: 'must be a user id (usr_...)' }) });
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
export const KeyIdParamsSchema = z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be a key id' }) });
export const RolledKeySchema = z.object({ key: ApiKeySummarySchema, secret: z.string() });
export const KeyResultSchema = z.object({ key: ApiKeySummarySchema });

const TestModeRequestSchema = z.object({
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
export const UpdateSettingsBodySchema = z.strictObject({
  businessName: z.string().nullable().optional(),
  logo: z
    .strictObject({ contentType: z.string(), dataBase64: z.string().max(200_000).regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'must be base64' }) })
    .nullable()
    .optional(),
});
export const GatewayParamsSchema = z.strictObject({ gateway: z.enum(GATEWAY_IDS) });
/** The bank's credentials as issued: any non-empty JSON object (sealed as sent, never shown again). */
export const BankCredentialsBodySchema = z.record(z.string(), z.unknown()).refine((o) => Object.keys(o).length > 0, { error: 'must be a non-empty JSON object' });
export const TestModeRequestBodySchema = z.strictObject({ gateway: z.enum(GATEWAY_IDS), enabled: z.boolean() });

export const AuditLogQuerySchema = z.strictObject({ cursor: z.string().max(200).optional(), limit: queryInt(1, 100, 50) });
export const AuditLogSchema = z.object({
  data: z.array(
    z.object({ id: z.string(), at: z.string(), userId: z.string(), email: z.string(), action: z.enum(AUDIT_ACTIONS), target: z.string(), detail: z.record(z.string(), z.unknown()) }),
  ),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

const isoDateOrTime = z.string().regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/, { error: 'must be an ISO date (2026-01-31) or UTC time' });
export const PaymentsQuerySchema = z.strictObject({
  query: z.string().trim().min(1).max(128).optional(),
  lastFour: z.string().regex(/^\d{4}$/, { error: 'must be 4 digits' }).optional(),
  status: z.string().max(40).optional(),
  currency: z.enum(CURRENCIES).optional(),
  /** Exact amount in minor units. */
  amountMinor: z.string().regex(/^\d{1,12}$/, { error: 'must be a whole number of minor units' }).transform(Number).optional(),
  from: isoDateOrTime.optional(),
  to: isoDateOrTime.optional(),
  limit: queryInt(1, 100, 25),
  cursor: z.string().max(1000).optional(),
});
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
export const PaymentReferenceParamsSchema = z.strictObject({ reference: z.string().regex(/^(cs|txn)_[0-9A-Za-z]{1,64}$/, { error: 'must be a session (cs_...) or transaction (txn_...) reference' }) });
export const PaymentDetailSchema = z.object({
  session: z.looseObject({ reference: z.string() }).nullable(),
  transactions: z.array(z.looseObject({ reference: z.string() })),
  deliveries: z.array(z.looseObject({ id: z.string(), eventType: z.string(), attempts: z.array(z.unknown()) })),
});
export const OverviewQuerySchema = z.strictObject({ tz: z.string().max(64).optional() });
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
  recentFailures: z.array(z.looseObject({ reference: z.string() })),
});
