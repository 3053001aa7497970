/**
 * Webhooks: the endpoints (create, edit, disable, delete, rotate the signing secret), a sample event of any type, and
 * the delivery log with each attempt and a resend button. #/webhooks lists, #/webhooks/new creates,
 * #/webhooks/we_… is one endpoint.
 */
import { EVENT_TYPES } from '../../../shared/domain/event-types.ts';
import { api } from '../api.ts';
import { deliveryTable } from '../deliveries.ts';
import { h, replace } from '../dom.ts';
import { formatDateTime } from '../format.ts';
import { t } from '../i18n.ts';
import { navigate, routeHref, type Route } from '../router.ts';
import { can } from '../session.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../types.ts';
import { badge, confirmThenRun, emptyState, errorMessage, field, notice, noticeRegion, runWithNotice, secretReveal, section, select, table, whileBusy } from '../ui.ts';
import { endpointForm, type EndpointChanges } from './endpoint-form.ts';

const DELIVERY_PAGE = 20;
const endpointPath = (id: string) => `/v1/webhooks/endpoints/${encodeURIComponent(id)}`;

/** The delivery log (of one endpoint, or all), newest first, with "more" paging by the last id. */
function deliveryLog(endpointId: string | null): { element: HTMLElement; load(): Promise<void> } {
  const w = t().webhooks;
  const region = noticeRegion();
  const list = h('div', {});
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, t().common.next);
  let shown: WebhookDelivery[] = [];
  const fetchPage = (startingAfter?: string) => api<{ data: WebhookDelivery[]; hasMore: boolean }>('GET', '/v1/webhooks/deliveries', { query: { endpointId, limit: DELIVERY_PAGE, startingAfter } });
  const draw = (hasMore: boolean) => {
    replace(list, shown.length ? deliveryTable(w.deliveries, shown, region, load) : emptyState(w.noDeliveries));
    more.hidden = !hasMore;
  };
  async function load(): Promise<void> {
    const page = await fetchPage();
    shown = page.data;
    draw(page.hasMore);
  }
  more.addEventListener('click', () =>
    void whileBusy(more, async () => {
      const page = await fetchPage(shown.at(-1)?.id);
      shown = [...shown, ...page.data];
      draw(page.hasMore);
    }).catch((error: unknown) => notice(region, 'error', errorMessage(error))),
  );
  return { element: section(w.deliveries, region, list, h('div', { class: 'pager' }, more)), load };
}

async function renderList(view: HTMLElement): Promise<void> {
  const w = t().webhooks;
  const { data: endpoints } = await api<{ data: WebhookEndpoint[] }>('GET', '/v1/webhooks/endpoints');
  const rows = endpoints.map((e) => [
    h('span', { class: 'stack' }, h('a', { href: routeHref('webhooks', e.id) }, e.url), e.description ? h('span', { class: 'hint' }, e.description) : null),
    badge(e.status),
    e.enabledEvents.length ? e.enabledEvents.join(', ') : w.eventsHint,
    w.authTypes[e.authType] ?? e.authType,
    formatDateTime(e.createdAt),
  ]);
  const log = deliveryLog(null);
  await log.load();
  replace(
    view,
    h('h1', { tabindex: -1 }, w.title),
    section(
      w.endpoints,
      can('developer') ? h('p', {}, h('a', { class: 'button primary', href: routeHref('webhooks', 'new') }, w.newEndpoint)) : h('p', { class: 'hint' }, t().common.readOnlyNote),
      // The empty list invites to create one only those who can.
      rows.length ? table(w.endpoints, [w.url, w.status, w.events, w.authType, t().common.createdAt], rows, { captionHidden: true }) : emptyState(can('developer') ? w.noEndpoints : w.noEndpointsReadOnly),
    ),
    log.element,
  );
}

async function renderNew(view: HTMLElement): Promise<void> {
  const w = t().webhooks;
  const region = noticeRegion();
  const form = endpointForm(null, can('developer'), (changes, button) =>
    void runWithNotice(button, region, async () => {
      const created = await api<WebhookEndpoint & { secret: string }>('POST', '/v1/webhooks/endpoints', { body: changes });
      const secret = secretReveal(w.secretTitle, created.secret);
      replace(view, h('h1', { tabindex: -1 }, w.created), h('section', { class: 'panel' }, secret, h('p', {}, h('a', { class: 'button primary', href: routeHref('webhooks', created.id) }, t().common.close))));
      secret.focus();
    }),
  );
  replace(view, h('p', {}, h('a', { href: routeHref('webhooks') }, `← ${w.back}`)), h('h1', { tabindex: -1 }, w.newEndpoint), h('section', { class: 'panel' }, region, form));
}

async function renderEndpoint(view: HTMLElement, id: string): Promise<void> {
  const w = t().webhooks;
  const endpoint = await api<WebhookEndpoint>('GET', endpointPath(id));
  const writable = can('developer');
  const region = noticeRegion();
  const secretSlot = h('div', {});
  const change = (changes: EndpointChanges, button: HTMLButtonElement, message = t().common.saved) =>
    runWithNotice(button, region, async () => {
      if (Object.keys(changes).length) await api('PATCH', endpointPath(id), { body: changes });
      await renderEndpoint(view, id);
      notice(view.querySelector<HTMLElement>('.notice-region')!, 'ok', message);
    });

  const actions = h('div', { class: 'actions' });
  if (writable) {
    const toggle = h('button', { type: 'button', class: 'secondary' }, endpoint.status === 'enabled' ? w.disable : w.enable);
    toggle.addEventListener('click', () => void change({ status: endpoint.status === 'enabled' ? 'disabled' : 'enabled' }, toggle));
    const rotate = h('button', { type: 'button', class: 'secondary' }, w.rotate);
    rotate.addEventListener('click', () =>
      confirmThenRun(rotate, w.confirmRotate, w.rotate, region, async () => {
        const rotated = await api<{ secret: string }>('POST', `/v1/dashboard/webhook-endpoints/${encodeURIComponent(id)}/rotate-secret`);
        const reveal = secretReveal(w.secretTitle, rotated.secret);
        replace(secretSlot, reveal);
        reveal.focus();
      }),
    );
    const remove = h('button', { type: 'button', class: 'danger' }, t().common.delete);
    remove.addEventListener('click', () =>
      confirmThenRun(remove, w.confirmDelete(endpoint.url), t().common.delete, region, async () => {
        await api('DELETE', endpointPath(id));
        navigate(routeHref('webhooks'));
      }),
    );
    actions.append(toggle, rotate, remove);
  }

  const sampleType = select('type', EVENT_TYPES.map((type): [string, string] => [type, type]), 'webhook.test');
  const sampleButton = h('button', { type: 'submit', class: 'secondary' }, w.sampleSend);
  const sample = h('form', { class: 'inline-form' }, field(w.sampleType, sampleType), sampleButton);
  const log = deliveryLog(id);
  sample.addEventListener('submit', (event) => {
    event.preventDefault();
    void runWithNotice(sampleButton, region, async () => {
      await api('POST', `${endpointPath(id)}/test`, { query: { type: sampleType.value } });
      await log.load();
      notice(region, 'ok', w.sampleSent);
    });
  });

  await log.load();
  replace(
    view,
    h('p', {}, h('a', { href: routeHref('webhooks') }, `← ${w.back}`)),
    h('h1', { tabindex: -1, class: 'break' }, endpoint.url, ' ', badge(endpoint.status)),
    region,
    writable ? h('section', { class: 'panel', 'aria-label': t().common.actions }, actions, secretSlot) : h('p', { class: 'hint' }, t().common.readOnlyNote),
    section(w.editTitle, endpointForm(endpoint, writable, (changes, button) => void change(changes, button))),
    writable ? section(w.sample, sample) : null,
    log.element,
  );
}

export async function renderWebhooks(view: HTMLElement, route: Route): Promise<void> {
  if (route.id === 'new') return renderNew(view);
  if (route.id) return renderEndpoint(view, route.id);
  return renderList(view);
}
