/**
 * What the dashboard's own routes (docs/dashboard.md) take: validated by their handlers. What they answer is in
 * dashboard-responses.ts, which no Lambda bundle imports.
 */
import * as z from 'zod';
import { ROLES } from '../domain/roles.ts';
import { CURRENCIES, GATEWAY_IDS } from '../domain/merchant.ts';
import { queryInt } from './common.ts';

const email = z.string().trim().min(3).max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'must be an email address' });

export const SignInBodySchema = z.strictObject({ email, password: z.string().min(1).max(256) });
const mfaCode = z.string().regex(/^\d{6}$/, { error: 'must be the 6 digits your app shows' });
export const MfaBodySchema = z.strictObject({ challengeSession: z.string().min(1).max(4096), code: mfaCode });
export const NewPasswordBodySchema = z.strictObject({ challengeSession: z.string().min(1).max(4096), newPassword: z.string().min(1).max(256) });

/** Two-step verification of the signed-in user's own account (docs/dashboard.md). */
export const StartMfaEnrolmentBodySchema = z.strictObject({ password: z.string().min(1).max(256) });
export const ConfirmMfaEnrolmentBodySchema = z.strictObject({ enrolmentSession: z.string().min(1).max(8192), code: mfaCode });
export const DisableMfaBodySchema = z.strictObject({ password: z.string().min(1).max(256), code: mfaCode });

export const CreateUserBodySchema = z.strictObject({ email, role: z.enum(ROLES) });
export const UpdateUserBodySchema = z.strictObject({ role: z.enum(ROLES) });
export const UserIdParamsSchema = z.strictObject({ id: z.string().regex(/^usr_[0-9A-Za-z]{1,64}$/, { error: 'must be a user id (usr_...)' }) });
export const KeyIdParamsSchema = z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be a key id' }) });
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
export const PaymentReferenceParamsSchema = z.strictObject({ reference: z.string().regex(/^(cs|txn)_[0-9A-Za-z]{1,64}$/, { error: 'must be a session (cs_...) or transaction (txn_...) reference' }) });
export const OverviewQuerySchema = z.strictObject({ tz: z.string().max(64).optional() });
