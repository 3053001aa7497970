/**
 * The shapes the dashboard reads from the API, derived from the schemas the API is held to (type imports only: the
 * page's bundle holds no zod). The dashboard's own routes answer what shared/schemas/dashboard-responses.ts says.
 */
import type { z } from 'zod';
import type { CardSchema } from '../../shared/schemas/card-responses.ts';
import type {
  ApiKeySummarySchema,
  AuditEntrySchema,
  AuditLogSchema,
  CreatedUserSchema,
  KeyListSchema,
  MeSchema,
  OverviewSchema,
  PaymentDetailSchema,
  PaymentListSchema,
  RolledKeySchema,
  SettingsSchema,
  UserListSchema,
} from '../../shared/schemas/dashboard-responses.ts';
import type { PaymentsExportPageSchema } from '../../shared/schemas/payment-export-responses.ts';
import type { WebhookDeliverySchema, WebhookEndpointSchema } from '../../shared/schemas/webhook-responses.ts';

export type Card = z.output<typeof CardSchema>;
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;

export type Me = z.output<typeof MeSchema>;
export type Overview = z.output<typeof OverviewSchema>;
type CurrencyFigures = Overview['currencies'][number];
export type Totals = CurrencyFigures['today'];
export type DailyPoint = CurrencyFigures['daily'][number];

export type PaymentList = z.output<typeof PaymentListSchema>;
export type PaymentDetail = z.output<typeof PaymentDetailSchema>;
export type TransactionDetail = PaymentDetail['transactions'][number];
export type PaymentsExportPage = z.output<typeof PaymentsExportPageSchema>;

export type ApiKey = z.output<typeof ApiKeySummarySchema>;
export type KeyList = z.output<typeof KeyListSchema>;
export type RolledKey = z.output<typeof RolledKeySchema>;

export type Settings = z.output<typeof SettingsSchema>;
export type UserList = z.output<typeof UserListSchema>;
export type CreatedUser = z.output<typeof CreatedUserSchema>;

export type AuditEntry = z.output<typeof AuditEntrySchema>;
export type AuditLog = z.output<typeof AuditLogSchema>;
