/**
 * Developers: the API keys by prefix and last characters; roll (new secret shown once, with copy) and revoke. A live
 * secret key moves money: only admins are offered its buttons (the API refuses others, shared/auth/key-permissions.ts).
 */
import { api } from '../api.ts';
import { h, replace } from '../dom.ts';
import { formatDateTime } from '../format.ts';
import { t } from '../i18n.ts';
import { leastRoleToManageKey } from '../../../shared/auth/key-permissions.ts';
import { can } from '../session.ts';
import type { ApiKey, KeyList, RolledKey } from '../types.ts';
import { badge, confirmThenRun, emptyState, notice, noticeRegion, secretReveal, section, table } from '../ui.ts';

const keyLabel = (key: ApiKey) => `${key.prefix}…${key.last4}`;

export async function renderDevelopers(view: HTMLElement): Promise<void> {
  const d = t().developers;
  if (!can('developer')) return replace(view, h('h1', { tabindex: -1 }, d.title), h('p', { class: 'notice' }, d.notForRole));
  const region = noticeRegion();
  const secretSlot = h('div', {});
  const list = h('div', {});

  const act = (button: HTMLButtonElement, question: string, confirmLabel: string, action: () => Promise<void>) => confirmThenRun(button, question, confirmLabel, region, action);

  const draw = async () => {
    const { data: keys } = await api<KeyList>('GET', '/v1/dashboard/keys');
    const rows = keys.map((key) => {
      const label = keyLabel(key);
      const buttons = h('div', { class: 'actions' });
      if (key.status === 'active' && can(leastRoleToManageKey(key))) {
        const roll = h('button', { type: 'button', class: 'secondary small', 'aria-label': `${d.roll} ${label}` }, d.roll);
        roll.addEventListener('click', () =>
          act(roll, d.confirmRoll(label), d.roll, async () => {
            const rolled = await api<RolledKey>('POST', `/v1/dashboard/keys/${encodeURIComponent(key.id)}/roll`);
            await draw();
            const reveal = secretReveal(`${d.newSecret} (${d.kinds[rolled.key.kind] ?? rolled.key.kind}, ${rolled.key.mode === 'test' ? t().common.test : t().common.live})`, rolled.secret);
            replace(secretSlot, reveal);
            reveal.focus();
          }),
        );
        const revoke = h('button', { type: 'button', class: 'danger small', 'aria-label': `${d.revoke} ${label}` }, d.revoke);
        revoke.addEventListener('click', () =>
          act(revoke, d.confirmRevoke(label), d.revoke, async () => {
            await api('POST', `/v1/dashboard/keys/${encodeURIComponent(key.id)}/revoke`);
            await draw();
            notice(region, 'ok', d.revoked);
          }),
        );
        buttons.append(roll, revoke);
      } else if (key.status === 'active') {
        buttons.append(h('span', { class: 'hint' }, d.adminOnly));
      }
      return [h('code', {}, label), d.kinds[key.kind] ?? key.kind, key.mode === 'test' ? t().common.test : t().common.live, badge(key.status), formatDateTime(key.createdAt), buttons.childElementCount ? buttons : t().common.none];
    });
    replace(list, rows.length ? table(d.keys, [d.key, d.kind, d.mode, t().common.status, t().common.createdAt, t().common.actions], rows, { captionHidden: true }) : emptyState(d.noKeys));
  };
  // Read first, then show: the page appears whole, never as a heading over an empty list.
  await draw();
  replace(view, h('h1', { tabindex: -1 }, d.title), section(d.keys, region, secretSlot, list));
}
