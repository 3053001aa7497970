/**
 * Browser tests of the merchant dashboard: Debian's Chromium driven by playwright-core against the real sandbox, with
 * a merchant, its dashboard users and a webhook receiver. Users are made as the admin CLI makes the first admin
 * (a user item and a login with a temporary password) and, for the other roles, invited by that admin through the API.
 * The first admin has chosen their password and turned two-step verification on (admins need it for anything else).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { MerchantKeys } from '../../../shared/admin/merchant-admin.ts';
import type { Merchant } from '../../../shared/domain/merchant.ts';
import type { Role } from '../../../shared/domain/roles.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../../support/webhook-receiver.ts';
import { newTotpSecret } from '../../../shared/dashboard/totp.ts';
import { testAuthenticator, type TestAuthenticator } from '../../support/totp-codes.ts';
import { accessibilityViolations, launchChromium, WAIT, WAIT_MS } from './checkout-browser.ts';

export { BROWSER_TEST_TIMEOUT, DESKTOP, PHONE, WAIT, WAIT_MS } from './checkout-browser.ts';
const ARTIFACTS_DIR = 'test-artifacts/dashboard';
/** The password each user chooses at first sign-in (the policy: 12+ characters, lower, upper, digit). */
export const CHOSEN_PASSWORD = 'Cafe-con-leche-2026';

export interface DashboardUserLogin {
  email: string;
  role: Role;
  temporaryPassword: string;
  /** The authenticator app of a user with two-step verification on: sign-ins answer its code. */
  app?: TestAuthenticator;
}

export interface DashboardHarness {
  sandbox: TestSandbox;
  merchant: Merchant;
  keys: MerchantKeys;
  receiver: TestReceiver;
  admin: DashboardUserLogin;
  /** A user of the given role, invited by the admin through the API (the sandbox answers the temporary password). */
  invite(role: Role): Promise<DashboardUserLogin>;
  /** A token for API calls as that user (signs in through the API; the first sign-in sets CHOSEN_PASSWORD). */
  tokenOf(user: DashboardUserLogin): Promise<string>;
  /** A fresh browser context (storage, cookies) with a page at the dashboard, sized as asked. */
  open(viewport: { width: number; height: number }): Promise<DashboardPage>;
  close(): Promise<void>;
}

export interface DashboardPage {
  page: Page;
  /** Console errors and page errors: a CSP violation or an uncaught exception shows up here. */
  errors: string[];
}

async function apiJson(sandbox: TestSandbox, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const res = await sandbox.request(method, path, { key: token, body, headers: { 'svc-mode': 'test' } });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** `respond` decides the webhook receiver's answers (default 200). */
export async function startDashboardHarness(respond?: Parameters<typeof startReceiver>[0]): Promise<DashboardHarness> {
  const sandbox = await startTestSandbox();
  const { merchant, keys } = await sandbox.newMerchant();
  const receiver = await startReceiver(respond);
  const adminUser = { id: `usr_${randomUUID().replaceAll('-', '')}`, email: `admin-${randomUUID().slice(0, 8)}@tienda.example`, role: 'admin' as const, merchantId: merchant.id, createdAt: new Date().toISOString() };
  await sandbox.deps.users.create(adminUser);
  const { temporaryPassword } = await sandbox.deps.userDirectory.createLogin(adminUser);
  await sandbox.userDirectory.setPassword(adminUser.id, CHOSEN_PASSWORD);
  const secret = newTotpSecret();
  const admin: DashboardUserLogin = { email: adminUser.email, role: 'admin', temporaryPassword: temporaryPassword!, app: testAuthenticator(secret, sandbox.authenticatorClock) };
  await sandbox.userDirectory.confirmMfaEnrolment(adminUser, secret, await admin.app!.nextCode());
  const browser: Browser = await launchChromium();
  const tokens = new Map<string, string>();

  const tokenOf = async (user: DashboardUserLogin): Promise<string> => {
    const known = tokens.get(user.email);
    if (known) return known;
    let answer = await sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: user.email, password: CHOSEN_PASSWORD } });
    if (answer.status === 401) {
      const first = await sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: user.email, password: user.temporaryPassword } });
      if (first.body?.challenge !== 'new_password') throw new Error(`first sign-in of ${user.email}: ${first.status} ${first.text}`);
      answer = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: CHOSEN_PASSWORD } });
    }
    if (answer.body?.challenge === 'mfa' && user.app) {
      answer = await sandbox.request('POST', '/v1/dashboard/auth/mfa', { body: { challengeSession: answer.body.challengeSession, code: await user.app.nextCode() } });
    }
    if (!answer.body?.token) throw new Error(`sign-in of ${user.email}: ${answer.status} ${answer.text}`);
    tokens.set(user.email, answer.body.token);
    return answer.body.token;
  };

  return {
    sandbox,
    merchant,
    keys,
    receiver,
    admin,
    tokenOf,
    async invite(role) {
      const email = `${role.replace('_', '-')}-${randomUUID().slice(0, 8)}@tienda.example`;
      const invited = await apiJson(sandbox, 'POST', '/v1/dashboard/users', await tokenOf(admin), { email, role });
      return { email, role, temporaryPassword: invited.temporaryPassword };
    },
    async open(viewport) {
      const context = await browser.newContext({ locale: 'es-VE', timezoneId: 'America/Caracas', viewport });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sandbox.url });
      // The checkout a test opens from the dashboard sends buyers back here; answered without network.
      await context.route('https://tienda.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><html lang="es"><title>Tienda</title></html>' }));
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      const opened: DashboardPage = { page, errors: [] };
      page.on('console', (message) => {
        // A refused call (403, 401) is logged by Chromium as a failed resource: it is the API answering, not a fault.
        if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of (401|403|404|409)/.test(message.text())) opened.errors.push(message.text());
      });
      page.on('pageerror', (error) => opened.errors.push(`pageerror: ${error.message}`));
      await page.goto(`${sandbox.url}/dashboard/`);
      return opened;
    },
    async close() {
      await browser.close();
      await receiver.close();
      await sandbox.stop();
    },
  };
}

/**
 * Signs in through the page as a user would: email and password, and at a first sign-in the new-password step (the
 * temporary password replaced by CHOSEN_PASSWORD), or with two-step verification on the app's code. Waits for the
 * shell's user line.
 */
export async function signIn(page: Page, user: DashboardUserLogin): Promise<void> {
  await page.getByLabel('Correo electrónico').fill(user.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(CHOSEN_PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  const shell = page.locator('.user-email');
  const refused = page.getByText('El correo o la contraseña no son correctos.');
  const codeStep = page.getByRole('heading', { name: 'Verificación en dos pasos' });
  await shell.or(refused).or(codeStep).waitFor(WAIT);
  if (await shell.isVisible()) return;
  if (user.app && (await codeStep.isVisible())) {
    await page.getByLabel('Código de verificación').fill(await user.app.nextCode());
    await page.getByRole('button', { name: 'Verificar' }).click();
    await expect.poll(() => shell.textContent(), WAIT).toBe(user.email);
    return;
  }
  // Not changed yet: the temporary password, then the user's own.
  await page.getByLabel('Contraseña', { exact: true }).fill(user.temporaryPassword);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.getByRole('heading', { name: 'Elige tu contraseña' }).waitFor(WAIT);
  await page.getByLabel('Nueva contraseña', { exact: true }).fill(CHOSEN_PASSWORD);
  await page.getByLabel('Repite la nueva contraseña').fill(CHOSEN_PASSWORD);
  await page.getByRole('button', { name: 'Guardar y entrar' }).click();
  await expect.poll(() => shell.textContent(), WAIT).toBe(user.email);
}

/** Moves to a page of the navigation and waits for its heading. */
export async function goTo(page: Page, navLabel: string, heading = navLabel): Promise<void> {
  await page.getByRole('navigation', { name: 'Secciones del panel' }).getByRole('link', { name: navLabel, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor(WAIT);
  await page.locator('.view > .loading').waitFor({ state: 'detached', ...WAIT });
}

/** Switches the data mode to test ("Datos de prueba") if it is not on yet. */
export async function useTestData(page: Page): Promise<void> {
  const toggle = page.getByRole('switch', { name: 'Datos de prueba' });
  if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
  await page.locator('.test-banner').waitFor(WAIT);
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousViolations(page: Page): Promise<{ id: string; help: string; nodes: string[] }[]> {
  const found = await accessibilityViolations(page);
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(({ id, help, nodes }) => ({ id, help, nodes }));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}

/**
 * A test payment of customer `customerRef` in the checkout: declined (insufficient funds, card ending 0002) or
 * approved (card ending 1111, which an approval with a customerRef also stores). Returns the session.
 */
export async function checkoutPayment(harness: DashboardHarness, customerRef: string, outcome: 'declined' | 'approved', key = harness.keys.secretTest): Promise<{ reference: string }> {
  const session = await openSession(harness.sandbox, key, { amountMinor: 125050, customerRef, description: 'Pedido 42' });
  const number = outcome === 'declined' ? TEST_CARDS.insufficientFunds : TEST_CARDS.visa;
  const charged = await checkoutCharge(harness.sandbox, session.reference, { card: card(number) });
  if (charged.body?.transaction?.status !== outcome) throw new Error(`expected ${outcome}: ${charged.status} ${charged.text}`);
  return session;
}

/** Reads until `accept` holds (for set-up, where expect.poll is not available); throws with the last value after `ms`. */
export async function until<T>(read: () => Promise<T>, accept: (value: T) => boolean, ms = WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`Still not there after ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
