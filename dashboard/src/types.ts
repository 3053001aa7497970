/** The shapes the dashboard reads from the API (docs/dashboard.md and the public API's own schemas). */
import type { z } from 'zod';
import type { CardSchema } from '../../shared/schemas/card-schemas.ts';
import type { WebhookDeliverySchema, WebhookEndpointSchema } from '../../shared/schemas/webhook-schemas.ts';
import type { DashboardUser } from './session.ts';

export type Card = z.output<typeof CardSchema>;
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;

export interface Me {
  user: DashboardUser;
  merchant: { id: string; name: string; businessName: string | null };
  /** An admin signed in without two-step verification: only the Security page until it is on. */
  mfaRequired: boolean;
}

export interface DailyPoint {
  date: string;
  approvedAmountMinor: number;
  approved: number;
  declined: number;
  failed: number;
}

export interface Totals {
  approvedAmountMinor: number;
  approvalRate: number | null;
  count: number;
}

export interface PaymentSummary {
  kind: 'session' | 'charge';
  reference: string;
  sessionReference?: string | null;
  transactionReference?: string | null;
  customerRef: string | null;
  lastFour: string | null;
  brand: string | null;
  amountMinor: number;
  currency: string;
  status: string;
  test: boolean;
  createdAt: string;
}

export interface Overview {
  currencies: { currency: string; today: Totals; last30Days: Totals; daily: DailyPoint[] }[];
  recentFailures: { reference: string; sessionReference: string | null; status: string; amountMinor: number; currency: string; declineCode: string | null; declineReason: string | null; createdAt: string }[];
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

export interface TransactionDetail {
  reference: string;
  status: string;
  test: boolean;
  sessionReference: string | null;
  amountMinor: number;
  currency: string;
  card: { brand: string; lastFour: string } | null;
  processorReference: string | null;
  declineReason: string | null;
  declineCode?: string | null;
  errorCode: string | null;
  gateway?: string;
  cardholderName?: string | null;
  document?: { type: string; id: string } | null;
  detail?: string | null;
  trace?: { at: string; event: string; detail?: string }[];
  createdAt: string;
}

export interface SessionDetail {
  reference: string;
  status: string;
  test?: boolean;
  amountMinor: number;
  currency: string;
  description?: string | null;
  customerRef: string | null;
  createdAt: string;
  expiresAt?: string;
  closedReason?: string | null;
}

export interface PaymentDetail {
  session: SessionDetail | null;
  transactions: TransactionDetail[];
  /** Absent from an API that has not listed them yet: read as none. */
  deliveries?: WebhookDelivery[];
}

export interface ApiKey {
  id: string;
  kind: string;
  mode: 'test' | 'live';
  prefix: string;
  last4: string;
  status: string;
  createdAt: string;
}

export interface Settings {
  businessName: string | null;
  logoUrl: string | null;
  gateways: Record<string, string>;
  credentials: Record<string, { loaded: boolean; loadedAt: string | null }>;
  testMode: Record<string, { state: 'on' | 'off'; supported: boolean; request: TestModeRequest | null }>;
}

export interface TestModeRequest {
  enabled: boolean;
  status: 'pending' | 'approved' | 'refused';
  requestedAt: string;
  decidedAt: string | null;
}

export interface AuditEntry {
  at: string;
  userId: string;
  email: string;
  action: string;
  target: string;
  /** What changed, never a secret: { kind, mode, old, new } for a key roll, { email, from, to } for a role change… */
  detail: Record<string, unknown>;
}

export interface DashboardUserRow {
  id: string;
  email: string;
  role: 'admin' | 'developer' | 'read_only';
  createdAt: string;
}
