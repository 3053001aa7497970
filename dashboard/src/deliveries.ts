/**
 * Webhook deliveries as the payment detail and the webhooks page both list them: the event, its state, every
 * attempt's answer and, for write roles, a resend button.
 */
import { api } from './api.ts';
import { h } from './dom.ts';
import { formatDateTime } from './format.ts';
import { t } from './i18n.ts';
import { can } from './session.ts';
import type { WebhookDelivery } from './types.ts';
import { badge, notice, runWithNotice, table } from './ui.ts';

function attempts(delivery: WebhookDelivery): HTMLElement {
  const w = t().webhooks;
  if (delivery.attempts.length === 0) return h('span', {}, t().common.none);
  const items = delivery.attempts.map((a) =>
    h(
      'li',
      {},
      h('strong', {}, `${w.attempt(a.attempt)}${a.manual ? ` (${w.manual})` : ''}: `),
      a.statusCode === null ? w.noAnswer : `HTTP ${a.statusCode}`,
      ` · ${formatDateTime(a.at)}`,
      a.error ? h('span', { class: 'hint' }, ` · ${a.error}`) : null,
    ),
  );
  return h('details', {}, h('summary', {}, `${delivery.attemptCount}`, delivery.lastStatusCode !== null ? ` · HTTP ${delivery.lastStatusCode}` : ''), h('ul', { class: 'attempts' }, ...items));
}

/**
 * The table of deliveries; `region` shows what a resend did, `refresh` redraws the list after one.
 */
export function deliveryTable(caption: string, deliveries: WebhookDelivery[], region: HTMLElement, refresh: () => Promise<void>): HTMLElement {
  const w = t().webhooks;
  const rows = deliveries.map((delivery) => {
    const resend = can('developer') ? h('button', { type: 'button', class: 'secondary small', 'aria-label': `${w.resend} ${delivery.eventType} ${delivery.id}` }, w.resend) : null;
    resend?.addEventListener('click', () =>
      void runWithNotice(resend, region, async () => {
        await api('POST', `/v1/webhooks/deliveries/${encodeURIComponent(delivery.id)}/retry`);
        await refresh();
        notice(region, 'ok', w.resent);
      }),
    );
    return [
      h('span', { class: 'stack' }, h('code', {}, delivery.eventType), h('span', { class: 'hint' }, delivery.eventId)),
      h('span', { class: 'stack' }, badge(delivery.state), delivery.nextRetryAt ? h('span', { class: 'hint' }, `${w.nextRetry}: ${formatDateTime(delivery.nextRetryAt)}`) : null),
      attempts(delivery),
      formatDateTime(delivery.createdAt),
      resend ?? t().common.none,
    ];
  });
  return table(caption, [t().detail.event, w.deliveryState, t().detail.attempts, t().common.createdAt, t().common.actions], rows, { captionHidden: true });
}
