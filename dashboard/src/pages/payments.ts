/**
 * Payments: sessions and direct charges in one list, newest first, searched by reference or customerRef, last four,
 * amount, status, currency and dates; cursor paging. The filters and cursor live in the URL, so a search can be shared,
 * reloaded and walked back.
 */
import { api } from '../api.ts';
import { h, replace } from '../dom.ts';
import { formatMoney } from '../../../shared/domain/money-format.ts';
import { amountInputValue, formatShortDateTime, parseAmountInput } from '../format.ts';
import { locale, t } from '../i18n.ts';
import { cardLabel, paymentStatusLabel } from '../names.ts';
import { cursorPager } from '../pager.ts';
import { dayField } from '../date-input.ts';
import { navigate, routeHref, type Route } from '../router.ts';
import { currentMode } from '../session.ts';
import type { PaymentList, PaymentsExportPage } from '../types.ts';
import { badge, emptyState, errorMessage, field, notice, noLiveDataState, noticeRegion, select, table, testFlag, whileBusy } from '../ui.ts';

const FILTERS = ['query', 'lastFour', 'amountMinor', 'status', 'currency', 'from', 'to'] as const;
const STATUSES = ['approved', 'declined', 'failed', 'pending', 'refunded', 'created', 'completed', 'expired'];
const PAGE_SIZE = 25;

/** A day picked in the form is a day of the user's calendar: from its first instant to the next day's. */
function dayBoundary(day: string | null, nextDay: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (nextDay) date.setDate(date.getDate() + 1);
  return date.toISOString();
}

function filterForm(query: URLSearchParams): HTMLFormElement {
  const p = t().payments;
  const text = (name: string, attributes: Record<string, string | number | boolean> = {}) => h('input', { name, type: 'text', value: query.get(name) ?? '', ...attributes });
  const lastFour = text('lastFour', { inputmode: 'numeric', maxlength: 4, pattern: '[0-9]{4}', autocomplete: 'off' });
  // Typed in major units (25,50); the URL and the API carry minor units.
  const searchedAmount = Number(query.get('amountMinor'));
  const amount = h('input', { name: 'amount', type: 'text', inputmode: 'decimal', autocomplete: 'off', value: query.get('amountMinor') && Number.isSafeInteger(searchedAmount) ? amountInputValue(searchedAmount) : '' });
  const form = h(
    'form',
    { class: 'filters', role: 'search', 'aria-label': p.filters },
    field(p.query, text('query', { spellcheck: 'false', autocomplete: 'off' }), p.queryHint),
    field(p.lastFour, lastFour),
    field(p.amount, amount, p.amountHint),
    field(p.status, select('status', [['', t().common.all], ...STATUSES.map((s): [string, string] => [s, p.statusFilter[s] ?? s])], query.get('status') ?? '')),
    field(p.currency, select('currency', [['', t().common.all], ['VES', 'VES'], ['USD', 'USD']], query.get('currency') ?? '')),
    dayField(t().common.dateFrom, 'from', query.get('from')),
    dayField(t().common.dateTo, 'to', query.get('to')),
    h('div', { class: 'filter-actions' }, h('button', { type: 'submit', class: 'primary' }, t().common.search), h('a', { href: routeHref('payments'), class: 'button secondary' }, t().common.clear)),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const value = (name: string) => String(data.get(name) ?? '').trim();
    if (value('lastFour') && !/^\d{4}$/.test(value('lastFour'))) {
      lastFour.setCustomValidity(p.lastFourInvalid);
      lastFour.reportValidity();
      return;
    }
    const amountMinor = value('amount') ? parseAmountInput(value('amount')) : undefined;
    if (amountMinor === null) {
      amount.setCustomValidity(p.amountInvalid);
      amount.reportValidity();
      return;
    }
    navigate(routeHref('payments', null, { ...Object.fromEntries(FILTERS.map((name) => [name, value(name)])), amountMinor: amountMinor === undefined ? '' : String(amountMinor) }));
  });
  lastFour.addEventListener('input', () => lastFour.setCustomValidity(''));
  amount.addEventListener('input', () => amount.setCustomValidity(''));
  return form;
}

/**
 * The list's search as CSV: the export's pages one after the other (each a short request, however long the period:
 * docs/dashboard.md, "Payments export"), joined and offered as a file. The BOM makes spreadsheets read it as UTF-8.
 */
function exportButton(query: Record<string, string | undefined>): HTMLElement {
  const p = t().payments;
  const button = h('button', { type: 'button', class: 'secondary' }, p.exportCsv);
  const region = noticeRegion();
  button.addEventListener('click', () => {
    void whileBusy(button, async () => {
      try {
        const parts = ['\uFEFF'];
        let rows = 0;
        let cursor: string | undefined;
        do {
          const page = await api<PaymentsExportPage>('GET', '/v1/payments/export', { query: { ...query, cursor } });
          parts.push(page.csv);
          rows += page.rows;
          notice(region, 'info', p.exporting(rows));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        const link = h('a', { href: URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' })), download: `pagos-${currentMode()}-${new Date().toISOString().slice(0, 10)}.csv` });
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
        notice(region, 'ok', p.exported(rows));
      } catch (error) {
        notice(region, 'error', errorMessage(error));
      }
    });
  });
  return h('div', { class: 'export' }, button, h('p', { class: 'hint' }, p.exportHint), region);
}

export async function renderPayments(view: HTMLElement, route: Route): Promise<void> {
  const p = t().payments;
  const filters = Object.fromEntries(FILTERS.map((name) => [name, route.query.get(name) ?? undefined]));
  const searchKey = `${currentMode()}|${FILTERS.map((name) => filters[name] ?? '').join('|')}`;
  const cursor = route.query.get('cursor') ?? undefined;
  const search = { ...filters, from: dayBoundary(filters.from ?? null, false), to: dayBoundary(filters.to ?? null, true) };
  const page = await api<PaymentList>('GET', '/v1/dashboard/payments', { query: { ...search, cursor, limit: PAGE_SIZE } });

  const rows = page.data.map((payment) => [
    h('span', { class: 'nowrap' }, formatShortDateTime(payment.createdAt)),
    h('span', { class: 'stack' }, h('a', { href: routeHref('payments', payment.reference) }, payment.reference), h('span', { class: 'hint' }, p.kind[payment.kind] ?? payment.kind)),
    payment.customerRef ?? t().common.none,
    payment.lastFour ? h('span', { class: 'nowrap' }, cardLabel(payment.brand, payment.lastFour)) : t().common.none,
    h('span', { class: 'amount' }, formatMoney(payment.amountMinor, payment.currency, locale())),
    h('span', { class: 'badges' }, badge(payment.status, paymentStatusLabel(payment.kind, payment.status)), payment.test ? testFlag() : null),
  ]);
  const pager = cursorPager(p.listLabel, `payments|${searchKey}`, cursor, page.hasMore ? page.nextCursor : null, (at) => routeHref('payments', null, { ...filters, cursor: at }));
  // Nothing at all (not a search that found nothing): in live mode, a sandbox merchant's payments are all test ones.
  const searched = FILTERS.some((name) => filters[name]) || cursor !== undefined;
  const empty = searched ? emptyState(p.none) : currentMode() === 'live' ? noLiveDataState() : emptyState(p.noTestPayments);

  replace(
    view,
    h('h1', { tabindex: -1 }, p.title),
    // No payment at all in this mode: nothing to search, and the sentence that says where they are comes first.
    rows.length || searched ? h('section', { class: 'panel', 'aria-label': p.filters }, filterForm(route.query)) : null,
    h(
      'section',
      { class: 'panel', 'aria-label': p.listLabel },
      rows.length ? table(p.listLabel, [p.date, p.reference, p.customer, p.card, p.amount, p.status], rows, { captionHidden: true }) : empty,
      pager,
      rows.length ? exportButton(search) : null,
    ),
  );
}
