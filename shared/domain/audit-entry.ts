/**
 * What the audit log records of a change made with a user token. Pure: no I/O. `detail` names what changed, never a
 * secret (no keys, credentials or card data).
 */
import { randomToken } from '../ids.ts';
import type { DashboardUser } from './dashboard-user.ts';

export const AUDIT_ACTIONS = [
  'key.rolled',
  'key.revoked',
  'bank_credentials.loaded',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook.sample_sent',
  'webhook_delivery.resent',
  'card.deleted',
  'refund.created',
  'payments.exported',
  'user.invited',
  'user.updated',
  'user.removed',
  'user.mfa_enabled',
  'user.mfa_disabled',
  'settings.updated',
  'test_mode.requested',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: string;
  merchantId: string;
  at: string;
  userId: string;
  email: string;
  action: AuditAction;
  /** What was changed: a key id, a user id, an endpoint id, a gateway… */
  target: string;
  detail: Record<string, unknown>;
}

/**
 * A new entry by `user` at `now`.
 *
 * @example
 * deps.audit.entryPut(auditEntry(user, req.now, 'key.revoked', key.keyHash))
 */
export function auditEntry(user: Pick<DashboardUser, 'id' | 'email' | 'merchantId'>, now: number, action: AuditAction, target: string, detail: Record<string, unknown> = {}): AuditEntry {
  return { id: `aud_${randomToken()}`, merchantId: user.merchantId, at: new Date(now).toISOString(), userId: user.id, email: user.email, action, target, detail };
}
