/**
 * The webhook deliveries of one payment's events, for its detail page. Events are read from the merchant's events
 * index over the payment's lifetime only (its first creation to its last update, and its expiry), at most
 * MAX_EVENTS_EXAMINED of them; a delivery's id is derived from its event and endpoint (deliveryIdFor), so each
 * event's deliveries are read directly, one GetItem per current endpoint, no scan of the delivery log. Deliveries to
 * an endpoint deleted since are not found this way (the delivery log still lists them).
 */
import type { CoreDeps } from '../deps.ts';
import type { Mode } from '../domain/session-state.ts';
import { deliveryIdFor, toDeliveryResource, type WebhookDeliveryResource } from '../webhooks/delivery.ts';
import { itemsOf, queryPage } from '../store/query-page.ts';

const MAX_EVENTS_EXAMINED = 500;
/** Events written just after the last update (an expiry's) still fall in the window. */
const WINDOW_MARGIN_MS = 60_000;

export async function deliveriesOfPayment(
  deps: CoreDeps,
  payment: { merchantId: string; mode: Mode; references: readonly string[]; from: string; to: string },
): Promise<WebhookDeliveryResource[]> {
  const to = new Date(Date.parse(payment.to) + WINDOW_MARGIN_MS).toISOString();
  const [{ items: entries }, endpoints] = await Promise.all([
    queryPage(deps.db, deps.config.tableName, {
      index: 'gsi1',
      partition: `MERCHANT#${payment.merchantId}#${payment.mode}#EVENTS`,
      newestFirst: false,
      sortKey: { between: [payment.from, `${to}~`] },
      pageSize: MAX_EVENTS_EXAMINED,
    }),
    deps.webhookEndpoints.list(payment.merchantId, payment.mode),
  ]);
  const references = new Set(payment.references);
  const events = (await itemsOf(deps.db, deps.config.tableName, entries))
    .map((item) => item.envelope as { id: string; data?: { sessionReference?: string; transactionReference?: string; reference?: string } })
    .filter(({ data = {} }) => [data.sessionReference, data.transactionReference, data.reference].some((r) => r !== undefined && references.has(r)));
  const ids = events.flatMap((event) => endpoints.map((endpoint) => deliveryIdFor(event.id, endpoint.id)));
  const deliveries = await Promise.all(ids.map((id) => deps.webhookDeliveries.get(id)));
  return deliveries
    .flatMap((d) => (d ? [toDeliveryResource(d)] : []))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
