/**
 * The reused /v1 write routes a dashboard user may call, and what each records in the audit log
 * (shared/http/middlewares/audit-user-change.ts). test/dashboard/api checks every write route with a `dashboard`
 * role is either here or under /v1/dashboard (which record their own).
 */
import type { ReusedRouteAudit } from '../http/middlewares/audit-user-change.ts';

export const REUSED_ROUTE_AUDIT: Partial<Record<string, ReusedRouteAudit>> = {
  deleteCard: { action: 'card.deleted', param: 'svcToken' },
  createWebhookEndpoint: { action: 'webhook_endpoint.created' },
  updateWebhookEndpoint: { action: 'webhook_endpoint.updated', param: 'id' },
  deleteWebhookEndpoint: { action: 'webhook_endpoint.deleted', param: 'id' },
  testWebhookEndpoint: { action: 'webhook.sample_sent', param: 'id', query: ['type'] },
  retryWebhookDelivery: { action: 'webhook_delivery.resent', param: 'id' },
  // The transaction refunded; the answer names the refund.
  createRefund: { action: 'refund.created', param: 'reference' },
};
