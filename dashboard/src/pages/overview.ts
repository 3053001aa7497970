/** Overview: approved amount and approval rate per currency today and over 30 days (live only), a chart, recent failures. */
import { api } from '../api.ts';
import { dailyChart } from '../chart.ts';
import { h, replace } from '../dom.ts';
import { formatMoney } from '../../../shared/domain/money-format.ts';
import { formatDateTime, formatRate } from '../format.ts';
import { locale, t } from '../i18n.ts';
import { routeHref } from '../router.ts';
import type { Overview, Totals } from '../types.ts';
import { badge, emptyState, noLiveDataState, section, table } from '../ui.ts';

function totals(label: string, currency: string, value: Totals): HTMLElement {
  return h(
    'div',
    { class: 'stat' },
    h('h3', {}, label),
    h('dl', {}, h('dt', {}, t().overview.approvedAmount), h('dd', { class: 'stat-amount' }, formatMoney(value.approvedAmountMinor, currency, locale())), h('dt', {}, t().overview.approvalRate), h('dd', {}, formatRate(value.approvalRate), h('span', { class: 'hint' }, ` · ${t().overview.payments(value.count)}`))),
  );
}

export async function renderOverview(view: HTMLElement): Promise<void> {
  const overview = await api<Overview>('GET', '/v1/dashboard/overview', { query: { tz: Intl.DateTimeFormat().resolvedOptions().timeZone } });
  // Nothing live in 30 days (a sandbox merchant's payments are all test ones): a sentence that leads to them, not zeros.
  const anyLive = overview.currencies.some((c) => c.last30Days.count > 0) || overview.recentFailures.length > 0;
  const currencies = overview.currencies.map((c) =>
    section(
      c.currency,
      h('div', { class: 'stats' }, totals(t().overview.today, c.currency, c.today), totals(t().overview.last30, c.currency, c.last30Days)),
      // An empty chart says less than a sentence does.
      c.last30Days.approvedAmountMinor > 0 ? dailyChart(c.currency, c.daily) : emptyState(t().overview.noApproved),
    ),
  );
  const failures = overview.recentFailures.map((f) => [
    h('a', { href: routeHref('payments', f.reference) }, f.reference),
    h('span', { class: 'amount' }, formatMoney(f.amountMinor, f.currency, locale())),
    badge(f.status),
    f.declineReason ?? f.errorCode ?? t().common.none,
    formatDateTime(f.createdAt),
  ]);
  replace(
    view,
    h('h1', { tabindex: -1 }, t().overview.title),
    h('p', { class: 'hint' }, t().overview.liveOnly),
    ...(anyLive ? currencies : [noLiveDataState(t().overview.noLive)]),
    section(
      t().overview.recentFailures,
      failures.length
        ? table(t().overview.recentFailures, [t().payments.reference, t().payments.amount, t().payments.status, t().detail.bankMessage, t().payments.date], failures, { captionHidden: true })
        : emptyState(t().overview.noFailures),
    ),
  );
}
