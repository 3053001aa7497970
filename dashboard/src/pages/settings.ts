/**
 * Settings: business name and logo (what buyers see on the checkout), bank credentials per gateway (write-only; when
 * they were loaded), test mode per gateway as a request the platform team approves, and for admins the users. The
 * audit log has its own page (audit.ts).
 */
import { api } from '../api.ts';
import { h, replace, type Child } from '../dom.ts';
import { formatDate, formatDateTime } from '../format.ts';
import { t } from '../i18n.ts';
import { gatewayName } from '../names.ts';
import { can, currentSession } from '../session.ts';
import type { CreatedUser, Settings, UserList } from '../types.ts';
import { badge, confirmThenRun, errorMessage, field, InputError, notice, noticeRegion, runWithNotice, secretReveal, section, select, table } from '../ui.ts';

const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const LOGO_MAX_BYTES = 64 * 1024;
const ROLES = ['admin', 'developer', 'read_only'] as const;
const SETTINGS_PATH = '/v1/dashboard/settings';

function base64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Runs a settings change from a form: busy button, the result in the section's region, then a redraw. */
function submitting(form: HTMLFormElement, region: HTMLElement, action: () => Promise<string | void>, redraw: () => Promise<void>): void {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void runWithNotice(button, region, async () => {
      const message = await action();
      await redraw();
      if (message) notice(region, 'ok', message);
    });
  });
}

type SectionBody = (settings: Settings, redraw: () => Promise<void>, region: HTMLElement) => Child[];

function businessSection(settings: Settings, redraw: () => Promise<void>, region: HTMLElement): Child[] {
  const s = t().settings;
  const admin = can('admin');
  const name = h('input', { name: 'businessName', type: 'text', maxlength: 100, value: settings.businessName ?? '', autocomplete: 'organization', disabled: !admin });
  const logo = h('input', { name: 'logo', type: 'file', accept: LOGO_TYPES.join(','), disabled: !admin });
  const preview = h('img', { class: 'logo-preview', alt: s.logoPreview, src: settings.logoUrl ?? null, hidden: !settings.logoUrl });
  let logoChange: { contentType: string; dataBase64: string } | null | undefined;
  logo.addEventListener('change', () => {
    const file = logo.files?.[0];
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) return void (logo.value = '', notice(region, 'error', s.logoType));
    if (file.size > LOGO_MAX_BYTES) return void (logo.value = '', notice(region, 'error', s.logoTooBig));
    preview.src = URL.createObjectURL(file);
    preview.hidden = false;
    void file.arrayBuffer().then((bytes) => (logoChange = { contentType: file.type, dataBase64: base64(bytes) }));
  });
  const removeLogo = h('button', { type: 'button', class: 'secondary', hidden: !admin || !settings.logoUrl }, s.removeLogo);
  removeLogo.addEventListener('click', () => {
    logoChange = null;
    preview.hidden = true;
    removeLogo.hidden = true;
  });
  const form = h('form', { class: 'stacked' }, field(s.businessName, name), field(s.logo, logo), h('div', { class: 'logo-row' }, preview, removeLogo), admin ? h('button', { type: 'submit', class: 'primary' }, t().common.save) : null);
  if (admin) {
    submitting(form, region, async () => {
      // Only what changed: an emptied name is removed (null), and buyers then see the account's name.
      const body: Record<string, unknown> = {};
      const typed = name.value.trim();
      if (typed !== (settings.businessName ?? '')) body.businessName = typed || null;
      if (logoChange !== undefined) body.logo = logoChange;
      if (Object.keys(body).length === 0) return t().common.saved;
      await api('PATCH', SETTINGS_PATH, { body });
      const shown = document.querySelector('.topbar .business');
      if (shown && typed) shown.textContent = typed;
      return t().common.saved;
    }, redraw);
  }
  return [h('p', { class: 'hint' }, s.businessHint), admin ? null : h('p', { class: 'hint' }, s.adminOnly), form];
}

function credentialsSection(settings: Settings, redraw: () => Promise<void>, region: HTMLElement): Child[] {
  const s = t().settings;
  const admin = can('admin');
  const gateways = Object.entries(settings.gateways).map(([currency, gateway]) => {
    const state = settings.credentials[gateway];
    const name = gatewayName(gateway);
    // Credentials loaded before their date was kept say only that they are loaded.
    const status = state?.loaded ? badge('active', state.loadedAt ? s.loadedOn(formatDate(state.loadedAt)) : s.loaded) : badge('pending', s.notLoaded);
    const heading = h('h3', {}, s.gatewayFor(name, currency), ' ', status);
    if (!admin) return h('div', { class: 'gateway' }, heading);
    const file = h('input', { type: 'file', name: `file-${gateway}`, accept: 'application/json,.json' });
    const text = h('textarea', { name: `json-${gateway}`, rows: 4, spellcheck: 'false', autocomplete: 'off', class: 'mono' });
    file.addEventListener('change', () => void file.files?.[0]?.text().then((content) => (text.value = content)));
    const form = h('form', { class: 'stacked' }, field(`${s.credentialsFile} · ${name}`, file), field(`${s.credentialsText} · ${name}`, text), h('button', { type: 'submit', class: 'primary' }, s.upload));
    submitting(form, region, async () => {
      let credentials: unknown;
      try {
        credentials = JSON.parse(text.value);
      } catch {
        credentials = null;
      }
      if (credentials === null || typeof credentials !== 'object' || Array.isArray(credentials)) throw new InputError(s.credentialsInvalid);
      await api('PUT', `/v1/dashboard/bank-credentials/${encodeURIComponent(gateway)}`, { body: credentials });
      // Nothing of the credentials stays in the page once they are sent.
      text.value = '';
      file.value = '';
      return s.uploaded;
    }, redraw);
    return h('div', { class: 'gateway' }, heading, form);
  });
  return [h('p', { class: 'hint' }, s.credentialsHint), ...gateways];
}

function testModeSection(settings: Settings, redraw: () => Promise<void>, region: HTMLElement): Child[] {
  const s = t().settings;
  const rows = Object.entries(settings.testMode).map(([gateway, mode]) => {
    const pending = mode.request?.status === 'pending';
    const request = mode.request
      ? h('span', { class: 'hint' }, `${mode.request.enabled ? s.requestOn : s.requestOff}: ${s.requestStates[mode.request.status] ?? mode.request.status} · ${s.requestedAt(formatDateTime(mode.request.requestedAt))}`)
      : null;
    let action: Child = t().common.none;
    if (!mode.supported) action = s.unsupported;
    else if (can('admin') && !pending) {
      const enable = mode.state !== 'on';
      const button = h('button', { type: 'button', class: 'secondary small', 'aria-label': `${enable ? s.requestOn : s.requestOff} · ${gatewayName(gateway)}` }, enable ? s.requestOn : s.requestOff);
      button.addEventListener('click', () =>
        void runWithNotice(button, region, async () => {
          await api('POST', '/v1/dashboard/test-mode-requests', { body: { gateway, enabled: enable } });
          await redraw();
          notice(region, 'ok', s.requested);
        }),
      );
      action = button;
    }
    return [gatewayName(gateway), h('span', { class: 'stack' }, badge(mode.state, s.testModeStates[mode.state] ?? mode.state), request), action];
  });
  return [h('p', { class: 'hint' }, s.testModeHint), table(s.testMode, [t().detail.gateway, t().common.status, t().common.actions], rows, { captionHidden: true })];
}

async function usersSection(): Promise<HTMLElement> {
  const s = t().settings;
  const region = noticeRegion();
  const list = h('div', {});
  const me = currentSession()?.user.id;
  const roleOptions = ROLES.map((role): [string, string] => [role, t().roles[role] ?? role]);
  const draw = async () => {
    const { data: users } = await api<UserList>('GET', '/v1/dashboard/users');
    const rows = users.map((user) => {
      const self = user.id === me;
      const role = select('role', roleOptions, user.role);
      role.setAttribute('aria-label', s.changeRole(user.email));
      role.disabled = self;
      role.addEventListener('change', () =>
        void api('PATCH', `/v1/dashboard/users/${encodeURIComponent(user.id)}`, { body: { role: role.value } })
          .then(() => notice(region, 'ok', t().common.saved))
          .catch((error: unknown) => ((role.value = user.role), notice(region, 'error', errorMessage(error)))),
      );
      const remove = self ? null : h('button', { type: 'button', class: 'danger small', 'aria-label': `${s.remove} ${user.email}` }, s.remove);
      remove?.addEventListener('click', () =>
        confirmThenRun(remove, s.confirmRemove(user.email), s.remove, region, async () => {
          await api('DELETE', `/v1/dashboard/users/${encodeURIComponent(user.id)}`);
          await draw();
        }),
      );
      return [h('span', {}, user.email, self ? ` ${s.you}` : ''), role, formatDate(user.createdAt), remove ?? t().common.none];
    });
    replace(list, table(s.users, [s.email, s.role, t().common.createdAt, t().common.actions], rows, { captionHidden: true }));
  };
  const email = h('input', { name: 'email', type: 'email', required: true, autocomplete: 'off' });
  const role = select('role', roleOptions, 'read_only');
  const secretSlot = h('div', {});
  const invite = h('form', { class: 'inline-form', 'aria-label': s.inviteTitle }, field(s.email, email), field(s.role, role), h('button', { type: 'submit', class: 'primary' }, s.invite));
  submitting(invite, region, async () => {
    const invited = await api<CreatedUser>('POST', '/v1/dashboard/users', { body: { email: email.value.trim(), role: role.value } });
    replace(secretSlot, invited.temporaryPassword ? secretReveal(s.invited(invited.user.email), invited.temporaryPassword, s.temporaryPassword) : '');
    email.value = '';
    return s.invited(invited.user.email);
  }, draw);
  await draw();
  return section(s.users, region, list, h('h3', {}, s.inviteTitle), invite, secretSlot);
}

/** A section drawn from the settings; a change redraws its body from a fresh read and keeps its notice region. */
function settingsSection(title: string, settings: Settings, body: SectionBody): HTMLElement {
  const region = noticeRegion();
  const content = h('div', {});
  const redraw = async () => replace(content, ...body(await api<Settings>('GET', SETTINGS_PATH), redraw, region));
  replace(content, ...body(settings, redraw, region));
  return section(title, region, content);
}

export async function renderSettings(view: HTMLElement): Promise<void> {
  const s = t().settings;
  const [settings, users] = await Promise.all([api<Settings>('GET', SETTINGS_PATH), can('admin') ? usersSection() : null]);
  replace(
    view,
    h('h1', { tabindex: -1 }, s.title),
    settingsSection(s.business, settings, businessSection),
    settingsSection(s.credentials, settings, credentialsSection),
    settingsSection(s.testMode, settings, testModeSection),
    users,
  );
}
