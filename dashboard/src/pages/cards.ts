/** Stored cards of one customer (by customerRef), with delete for write roles after a confirm dialog. */
import { api } from '../api.ts';
import { h, replace } from '../dom.ts';
import { formatDate } from '../format.ts';
import { t } from '../i18n.ts';
import { cardLabel } from '../names.ts';
import { navigate, routeHref, type Route } from '../router.ts';
import { can } from '../session.ts';
import type { Card } from '../types.ts';
import { badge, confirmThenRun, emptyState, field, notice, noticeRegion, section, table } from '../ui.ts';

export async function renderCards(view: HTMLElement, route: Route): Promise<void> {
  const c = t().cards;
  const customerRef = route.query.get('customerRef') ?? '';
  const input = h('input', { name: 'customerRef', type: 'text', value: customerRef, required: true, spellcheck: 'false', autocomplete: 'off' });
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': c.title }, field(c.customerRef, input, c.intro), h('div', { class: 'filter-actions' }, h('button', { type: 'submit', class: 'primary' }, t().common.search)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (input.value.trim()) navigate(routeHref('cards', null, { customerRef: input.value.trim() }));
  });
  const region = noticeRegion();
  const results = h('div', {});

  const draw = async () => {
    const cards = await api<Card[]>('GET', '/v1/cards', { query: { customerRef } });
    const rows = cards.map((card) => {
      const label = cardLabel(card.brand, card.lastFour);
      let remove: HTMLButtonElement | null = null;
      if (can('developer') && card.status !== 'deleted') {
        const button = h('button', { type: 'button', class: 'danger small', 'aria-label': `${t().common.delete} ${label}` }, t().common.delete);
        button.addEventListener('click', () =>
          confirmThenRun(button, c.confirmDelete(label), t().common.delete, region, async () => {
            await api('DELETE', `/v1/cards/${encodeURIComponent(card.svcToken)}`);
            await draw();
            notice(region, 'ok', c.deleted);
          }),
        );
        remove = button;
      }
      return [
        label,
        `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`,
        card.holderName ?? t().common.none,
        badge(card.status),
        card.gatewayAuthStatus ? `${card.gatewayAuthStatus}${card.gatewayAuthExpiresAt ? ` · ${formatDate(card.gatewayAuthExpiresAt)}` : ''}` : t().common.none,
        formatDate(card.createdAt),
        remove ?? t().common.none,
      ];
    });
    replace(results, rows.length ? table(c.title, [c.card, c.expiry, c.holder, t().common.status, c.bankAuth, t().common.createdAt, t().common.actions], rows, { captionHidden: true }) : emptyState(c.none));
  };

  if (customerRef) await draw();
  replace(view, h('h1', { tabindex: -1 }, c.title), h('section', { class: 'panel', 'aria-label': c.customerRef }, form), customerRef ? section(c.of(customerRef), region, results) : null);
}
