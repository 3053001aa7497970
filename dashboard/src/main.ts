/**
 * The dashboard's start: sign-in when there is no session, else the shell (header, mode toggle, navigation) around
 * the page the URL's fragment names. The session ends at its expiry or at the API's first 401: back to sign-in.
 */
import { api, ApiError, whenSessionEnds } from './api.ts';
import { h, replace } from './dom.ts';
import { language, setLanguage, t, type Language } from './i18n.ts';
import { renderAudit } from './pages/audit.ts';
import { renderCards } from './pages/cards.ts';
import { renderDevelopers } from './pages/developers.ts';
import { renderOverview } from './pages/overview.ts';
import { renderPaymentDetail } from './pages/payment-detail.ts';
import { renderPayments } from './pages/payments.ts';
import { MFA_ENABLED_EVENT, renderSecurity } from './pages/security.ts';
import { renderSettings } from './pages/settings.ts';
import { renderWebhooks } from './pages/webhooks.ts';
import { currentRoute, type Route } from './router.ts';
import { can, clearSession, currentMode, currentSession, setMode, type Role } from './session.ts';
import type { Me } from './types.ts';
import { errorMessage } from './ui.ts';

const root = document.getElementById('app')!;
let me: Me | null = null;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

interface PageEntry {
  title: () => string;
  /** The lowest role that sees the page in the navigation. */
  minimum: Role;
  render(view: HTMLElement, route: Route): Promise<void>;
}

const PAGES: Record<string, PageEntry> = {
  overview: { title: () => t().nav.overview, minimum: 'read_only', render: renderOverview },
  payments: { title: () => t().nav.payments, minimum: 'read_only', render: (view, route) => (route.id ? renderPaymentDetail(view, route.id) : renderPayments(view, route)) },
  cards: { title: () => t().nav.cards, minimum: 'read_only', render: renderCards },
  webhooks: { title: () => t().nav.webhooks, minimum: 'read_only', render: renderWebhooks },
  developers: { title: () => t().nav.developers, minimum: 'developer', render: renderDevelopers },
  settings: { title: () => t().nav.settings, minimum: 'read_only', render: renderSettings },
  audit: { title: () => t().nav.audit, minimum: 'admin', render: renderAudit },
  security: { title: () => t().nav.security, minimum: 'read_only', render: renderSecurity },
};

function signOut(message: string): void {
  clearSession();
  me = null;
  clearTimeout(expiryTimer);
  import('./sign-in.ts').then(({ renderSignIn }) => renderSignIn(root, start, message)).catch(() => location.reload());
}

whenSessionEnds(() => signOut(t().signIn.expired));

async function start(): Promise<void> {
  const session = currentSession();
  if (!session) return signOut('');
  clearTimeout(expiryTimer);
  // setTimeout fires at once past 2^31 - 1 ms (24.8 days): a longer wait is capped, and the API's 401 still ends it.
  expiryTimer = setTimeout(() => signOut(t().signIn.expired), Math.min(2 ** 31 - 1, Math.max(0, Date.parse(session.expiresAt) - Date.now())));
  try {
    me = await api<Me>('GET', '/v1/dashboard/me');
  } catch (error) {
    if (!currentSession()) return; // a 401: already back at sign-in
    replace(root, h('main', { id: 'main', class: 'content' }, h('p', { class: 'notice error', role: 'alert' }, errorMessage(error))));
    return;
  }
  await renderRoute();
}

function languagePicker(): HTMLElement {
  const picker = h('select', { id: 'language', name: 'language' }, h('option', { value: 'es', lang: 'es', selected: language() === 'es' }, 'Español'), h('option', { value: 'en', lang: 'en', selected: language() === 'en' }, 'English'));
  picker.addEventListener('change', () => {
    setLanguage(picker.value as Language);
    void (me ? renderRoute() : start());
  });
  return h('div', { class: 'language' }, h('label', { for: 'language', class: 'visually-hidden' }, t().language), picker);
}

function modeToggle(): HTMLElement {
  const toggle = h('button', { type: 'button', class: 'mode-toggle', role: 'switch', 'aria-checked': String(currentMode() === 'test') }, h('span', { class: 'switch', 'aria-hidden': 'true' }), t().shell.testData);
  toggle.addEventListener('click', () => {
    setMode(currentMode() === 'test' ? 'live' : 'test');
    void renderRoute();
  });
  return toggle;
}

function header(user: Me['user'], businessName: string): HTMLElement {
  const signOutButton = h('button', { type: 'button', class: 'link-button' }, t().shell.signOut);
  // The API ends the session first (its token is refused from then on); signed out here whatever it answers.
  signOutButton.addEventListener('click', () => void api('POST', '/v1/dashboard/auth/sign-out').catch(() => undefined).finally(() => signOut(t().signIn.signedOut)));
  return h(
    'header',
    { class: 'topbar' },
    h('div', { class: 'brand' }, h('span', { class: 'brand-mark' }, 'svc'), h('span', { class: 'business' }, businessName)),
    h('div', { class: 'topbar-tools' }, modeToggle(), languagePicker(), h('p', { class: 'user' }, h('span', { class: 'visually-hidden' }, `${t().shell.signedInAs} `), h('span', { class: 'user-email' }, user.email), ' ', h('span', { class: 'role' }, t().roles[user.role] ?? user.role)), signOutButton),
  );
}

/** The fragment holds the route, so the skip link moves the focus itself instead of following #main. */
function skipLink(): HTMLElement {
  const link = h('a', { class: 'skip-link', href: '#main' }, t().skipToContent);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    document.getElementById('main')?.focus();
  });
  return link;
}

function navigation(active: string): HTMLElement {
  const links = Object.entries(PAGES)
    .filter(([, entry]) => can(entry.minimum))
    .map(([name, entry]) => h('li', {}, h('a', { href: `#/${name}`, 'aria-current': name === active ? 'page' : null }, entry.title())));
  return h('nav', { class: 'sidenav', 'aria-label': t().shell.mainNav }, h('ul', {}, ...links));
}

async function renderRoute(): Promise<void> {
  const session = currentSession();
  if (!session || !me) return signOut(t().signIn.expired);
  const route = currentRoute();
  // An admin without two-step verification can do nothing else until it is on (the API refuses the rest).
  if (me.mfaRequired && route.page !== 'security') {
    location.hash = '#/security';
    return;
  }
  const entry = PAGES[route.page] && can(PAGES[route.page]!.minimum) ? PAGES[route.page]! : PAGES.overview!;
  const view = h('div', { class: 'view' }, h('p', { class: 'loading', role: 'status' }, t().loading));
  const testBanner = currentMode() === 'test' ? h('p', { class: 'test-banner', role: 'note' }, t().shell.testBanner) : null;
  const mfaBanner = me.mfaRequired ? h('p', { class: 'notice error', role: 'alert' }, t().security.adminMfaRequired) : null;
  replace(
    root,
    skipLink(),
    header(session.user, me.merchant.businessName ?? me.merchant.name),
    testBanner,
    mfaBanner,
    h('div', { class: 'layout' }, navigation(route.page), h('main', { id: 'main', class: 'content', tabindex: -1 }, view)),
  );
  document.title = `${entry.title()} · ${t().appName}`;
  // On a phone the navigation is a strip that scrolls sideways: the current page's link is brought into it.
  root.querySelector('.sidenav [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  try {
    await entry.render(view, route);
  } catch (error) {
    if (!currentSession()) return;
    // A fault of the page itself (not an API answer) is logged for the developer tools and the browser tests.
    if (!(error instanceof ApiError)) console.error(error);
    replace(view, h('p', { class: 'notice error', role: 'alert' }, errorMessage(error)));
  }
  // The page's heading takes the focus after a navigation, so a screen reader announces where the user is.
  if (document.activeElement === document.body || document.activeElement === null) view.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
}

window.addEventListener('hashchange', () => {
  if (me) void renderRoute();
});

// Two-step verification just turned on (pages/security.ts): an admin held on the Security page is let through.
window.addEventListener(MFA_ENABLED_EVENT, () => {
  if (me?.mfaRequired) void start();
});

void start();
