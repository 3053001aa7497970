/**
 * The audit log (admins): every change made from the dashboard, newest first, a page at a time (the cursor in the
 * URL). Each target is written for people: a key by its prefix and last four with its kind and mode, a user by
 * email, a gateway by name, an endpoint or payment as a link; never a key's 64-character hash.
 */
import { api } from '../api.ts';
import { h, replace, type Child } from '../dom.ts';
import { formatMoney } from '../../../shared/domain/money-format.ts';
import { formatDateTime } from '../format.ts';
import { locale, t } from '../i18n.ts';
import { gatewayName } from '../names.ts';
import { cursorPager } from '../pager.ts';
import { routeHref, type Route } from '../router.ts';
import type { AuditEntry, AuditLog } from '../types.ts';
import { emptyState, table } from '../ui.ts';

const PAGE_SIZE = 20;

const text = (detail: AuditEntry['detail'], name: string): string | null => (typeof detail[name] === 'string' ? (detail[name] as string) : null);
/** A key's hint as stored (sk_test_...abcd), with the ellipsis the Developers page shows. */
const keyHint = (hint: string | null): string | null => hint?.replace('...', '…') ?? null;
const role = (value: string | null): string => (value ? (t().roles[value] ?? value) : t().common.none);

function target(entry: AuditEntry): Child {
  const s = t().settings;
  const { detail } = entry;
  switch (entry.action) {
    case 'key.rolled':
    case 'key.revoked': {
      const hints = entry.action === 'key.rolled' ? [keyHint(text(detail, 'old')), keyHint(text(detail, 'new'))].filter(Boolean).join(' → ') : keyHint(text(detail, 'key'));
      const kind = text(detail, 'kind');
      const mode = text(detail, 'mode');
      return h('span', { class: 'stack' }, hints ? h('code', {}, hints) : null, kind && mode ? h('span', { class: 'hint' }, s.auditOfKey(t().developers.kinds[kind] ?? kind, mode === 'test' ? t().common.test : t().common.live)) : null);
    }
    case 'bank_credentials.loaded':
      return gatewayName(entry.target);
    case 'test_mode.requested':
      return `${gatewayName(entry.target)} · ${detail.enabled ? s.requestOn : s.requestOff}`;
    case 'user.invited':
    case 'user.removed':
      return h('span', { class: 'stack' }, text(detail, 'email') ?? entry.target, h('span', { class: 'hint' }, role(text(detail, 'role'))));
    case 'user.updated':
      return h('span', { class: 'stack' }, text(detail, 'email') ?? entry.target, h('span', { class: 'hint' }, `${role(text(detail, 'from'))} → ${role(text(detail, 'to'))}`));
    case 'user.mfa_enabled':
    case 'user.mfa_disabled':
      return entry.email;
    case 'settings.updated': {
      const changes = [
        'businessName' in detail ? (text(detail, 'businessName') ? s.businessNameSet(text(detail, 'businessName')!) : s.businessNameRemoved) : null,
        'logo' in detail ? (detail.logo ? s.logoChanged : s.logoRemoved) : null,
      ].filter((change): change is string => change !== null);
      return changes.length ? h('span', { class: 'stack' }, ...changes.map((change) => h('span', {}, change))) : t().common.none;
    }
    case 'refund.created': {
      const amount = typeof detail.amountMinor === 'number' && text(detail, 'currency') ? formatMoney(detail.amountMinor, text(detail, 'currency')!, locale()) : null;
      const how = text(detail, 'method') === 'external' ? t().refunds.recorded(t().refunds.channels[text(detail, 'channel') ?? 'other'] ?? '') : null;
      return h('span', { class: 'stack' }, h('a', { href: routeHref('payments', entry.target), class: 'break' }, entry.target), amount ? h('span', { class: 'hint' }, [amount, how].filter(Boolean).join(' · ')) : null);
    }
    case 'payments.exported':
      return h('span', { class: 'stack' }, s.exportedRows(typeof detail.rows === 'number' ? detail.rows : 0), h('code', { class: 'hint break' }, text(detail, 'filters') ?? ''));
    case 'webhook_endpoint.created':
    case 'webhook_endpoint.updated':
    case 'webhook_endpoint.secret_rotated':
    case 'webhook.sample_sent':
      return h('span', { class: 'stack' }, h('a', { href: routeHref('webhooks', entry.target), class: 'break' }, entry.target), text(detail, 'type') ? h('code', { class: 'hint' }, text(detail, 'type')) : null);
    default:
      return entry.target ? h('code', { class: 'break' }, entry.target) : t().common.none;
  }
}

export async function renderAudit(view: HTMLElement, route: Route): Promise<void> {
  const s = t().settings;
  const cursor = route.query.get('cursor') ?? undefined;
  const page = await api<AuditLog>('GET', '/v1/dashboard/audit-log', { query: { cursor, limit: PAGE_SIZE } });
  const rows = page.data.map((entry) => [
    h('time', { datetime: entry.at, class: 'nowrap' }, formatDateTime(entry.at)),
    h('span', { class: 'break' }, entry.email),
    h('span', { class: 'stack' }, s.auditActions[entry.action] ?? entry.action, h('code', { class: 'hint' }, entry.action)),
    target(entry),
  ]);
  const pager = cursorPager(s.audit, 'audit', cursor, page.hasMore ? page.nextCursor : null, (at) => routeHref('audit', null, { cursor: at }));
  replace(
    view,
    h('h1', { tabindex: -1 }, s.audit),
    h('p', { class: 'hint' }, s.auditIntro),
    h('section', { class: 'panel', 'aria-label': s.audit }, rows.length ? table(s.audit, [s.auditWhen, s.auditWho, s.auditAction, s.auditTarget], rows, { captionHidden: true }) : emptyState(s.noAudit), pager),
  );
}
