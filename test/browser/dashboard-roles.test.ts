/**
 * Every page of the dashboard for each role (admin, developer, read_only) on desktop and phone: the navigation the
 * role is offered, axe-core with no serious or critical finding on any page, and screenshots under
 * test-artifacts/dashboard/. Then what the shell promises: English remembered, sign-out, an ended session back at
 * sign-in, a developer's card deletion behind a confirm dialog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { openSession } from '../support/checkout.ts';
import type { Role } from '../../shared/domain/roles.ts';
import {
  BROWSER_TEST_TIMEOUT,
  checkoutPayment,
  DESKTOP,
  goTo,
  PHONE,
  screenshot,
  seriousViolations,
  signIn,
  startDashboardHarness,
  useTestData,
  WAIT,
  type DashboardHarness,
  type DashboardUserLogin,
} from './support/dashboard-browser.ts';

const PAGES_BY_ROLE: Record<Role, string[]> = {
  admin: ['Resumen', 'Pagos', 'Tarjetas guardadas', 'Webhooks', 'Desarrolladores', 'Configuración', 'Auditoría', 'Seguridad'],
  developer: ['Resumen', 'Pagos', 'Tarjetas guardadas', 'Webhooks', 'Desarrolladores', 'Configuración', 'Seguridad'],
  read_only: ['Resumen', 'Pagos', 'Tarjetas guardadas', 'Webhooks', 'Configuración', 'Seguridad'],
};
const CUSTOMER = 'cliente-roles-7';

describe('dashboard pages for each role', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  const users = {} as Record<Role, DashboardUserLogin>;

  beforeAll(async () => {
    harness = await startDashboardHarness();
    users.admin = harness.admin;
    users.developer = await harness.invite('developer');
    users.read_only = await harness.invite('read_only');
    await checkoutPayment(harness, CUSTOMER, 'declined');
    await checkoutPayment(harness, CUSTOMER, 'approved');
    // Live payments for the overview (live only): the bank's credentials loaded as the platform team does.
    await loadBankCredentials(harness.sandbox.deps, harness.merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'live-key' }));
    await checkoutPayment(harness, CUSTOMER, 'approved', harness.keys.secretLive);
    await checkoutPayment(harness, CUSTOMER, 'declined', harness.keys.secretLive);
    await harness.sandbox.request('POST', '/v1/webhooks/endpoints', { key: harness.keys.secretTest, body: { url: `${harness.receiver.url}/hooks`, enabledEvents: ['charge.approved'] } });
  }, 120_000);
  afterAll(() => harness?.close());

  for (const role of ['admin', 'developer', 'read_only'] as const) {
    for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      it(`${role} on ${device}: the role's navigation, every page accessible, screenshots`, async () => {
        const { page, errors } = await harness.open(viewport);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `${role}-${device}-sign-in`);
        await signIn(page, users[role]);
        await useTestData(page);
        const nav = page.getByRole('navigation', { name: 'Secciones del panel' });
        expect(await nav.getByRole('link').allTextContents()).toEqual(PAGES_BY_ROLE[role]);

        const visits: [string, string][] = [
          ['#/overview', 'overview'],
          ['#/payments', 'payments'],
          [`#/cards?customerRef=${CUSTOMER}`, 'cards'],
          ['#/webhooks', 'webhooks'],
          ['#/webhooks/new', 'webhook-new'],
          ['#/developers', 'developers'],
          ['#/settings', 'settings'],
          ['#/audit', 'audit'],
          ['#/security', 'security'],
        ];
        for (const [hash, name] of visits) {
          await page.goto(`${harness.sandbox.url}/dashboard/${hash}`);
          await page.locator('main h1').waitFor(WAIT);
          await page.locator('.view > .loading').waitFor({ state: 'detached', ...WAIT });
          expect(await page.locator('.notice.error').count(), `${name}: ${await page.locator('.notice.error').allTextContents()}`).toBe(0);
          expect(await seriousViolations(page), name).toEqual([]);
          await screenshot(page, `${role}-${device}-${name}`);
        }
        // A payment's detail, reached from the list.
        await goTo(page, 'Pagos');
        await page.locator('tbody a').first().click();
        await page.locator('.attempt').first().waitFor(WAIT);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `${role}-${device}-payment-detail`);
        expect(errors).toEqual([]);
      });
    }
  }

  it("shows live payments only on the overview: today's approved amount and rate, the chart, the recent failure", async () => {
    const { page } = await harness.open(DESKTOP);
    await signIn(page, users.read_only);
    await page.getByRole('heading', { level: 1, name: 'Resumen' }).waitFor(WAIT);
    const ves = page.locator('section.panel', { has: page.getByRole('heading', { name: 'VES', exact: true }) });
    const today = ves.locator('.stat').first();
    await today.waitFor(WAIT);
    expect(await today.locator('.stat-amount').textContent()).toBe('Bs. 1.250,50');
    expect(await today.textContent()).toMatch(/50\s?%/);
    expect(await ves.getByRole('img').getAttribute('aria-label')).toContain('Bs. 1.250,50');
    expect(await page.locator('section.panel', { hasText: 'Fallos recientes' }).locator('tbody tr').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'read_only-desktop-overview-live');
  });

  it('searches by customerRef and status and pages forward and back with the cursor', async () => {
    const customer = 'cliente-muchas-compras';
    for (let i = 0; i < 27; i++) await openSession(harness.sandbox, harness.keys.secretTest, { amountMinor: 1000 + i, customerRef: customer });
    const { page } = await harness.open(PHONE);
    await signIn(page, users.read_only);
    await useTestData(page);
    await goTo(page, 'Pagos');
    await page.getByLabel('Referencia o cliente (customerRef)').fill(customer);
    await page.getByRole('button', { name: 'Buscar' }).click();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count(), WAIT).toBe(25);
    const first = await rows.first().textContent();
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await expect.poll(() => rows.count(), WAIT).toBe(2);
    expect(await page.getByRole('button', { name: 'Siguiente' }).count()).toBe(0);
    await screenshot(page, 'read_only-phone-payments-second-page');
    await page.getByRole('button', { name: 'Anterior' }).click();
    await expect.poll(() => rows.count(), WAIT).toBe(25);
    expect(await rows.first().textContent()).toBe(first);

    // The other customer's declined payment, by status: one row, flagged as a test payment.
    await page.goto(`${harness.sandbox.url}/dashboard/#/payments?query=${CUSTOMER}&status=failed`);
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBeGreaterThan(0);
    for (const badges of await page.locator('tbody tr .badges').allTextContents()) expect(badges).toMatch(/Prueba/);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('lets a developer delete a stored card after confirming, and keeps it when the dialog is cancelled', async () => {
    const { page } = await harness.open(DESKTOP);
    await signIn(page, users.developer);
    await useTestData(page);
    await page.goto(`${harness.sandbox.url}/dashboard/#/cards?customerRef=${CUSTOMER}`);
    const remove = page.getByRole('button', { name: 'Eliminar Visa •••• 1111' });
    await remove.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor(WAIT);
    expect(await dialog.textContent()).toContain('¿Eliminar la tarjeta Visa •••• 1111?');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'developer-desktop-card-delete-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...WAIT });
    expect((await harness.sandbox.request('GET', `/v1/cards?customerRef=${CUSTOMER}`, { key: harness.keys.secretTest })).body[0].status).toBe('active');

    await remove.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText('Tarjeta eliminada.').waitFor(WAIT);
    await expect.poll(async () => (await harness.sandbox.request('GET', `/v1/cards?customerRef=${CUSTOMER}`, { key: harness.keys.secretTest })).body[0]?.status ?? 'gone', WAIT).not.toBe('active');
  });

  it('remembers English once chosen, and every text follows it', async () => {
    const { page } = await harness.open(DESKTOP);
    await signIn(page, users.read_only);
    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor(WAIT);
    await page.reload();
    await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor(WAIT);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('switch', { name: 'Test data' }).count()).toBe(1);
    await screenshot(page, 'read_only-desktop-payments-english');
  });

  it('signs out, and sends a user whose session ended back to sign-in with the reason', async () => {
    const { page } = await harness.open(PHONE);
    await signIn(page, users.read_only);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByText('Cerraste la sesión.').waitFor(WAIT);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    await signIn(page, users.read_only);
    // The API no longer accepts the token (expired, or the user was removed): the next call ends the session.
    await page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem('svc.dashboard.session')!);
      sessionStorage.setItem('svc.dashboard.session', JSON.stringify({ ...stored, token: `${stored.token}x` }));
    });
    await page.getByRole('navigation', { name: 'Secciones del panel' }).getByRole('link', { name: 'Pagos' }).click();
    await page.getByText('Tu sesión terminó. Inicia sesión de nuevo.').waitFor(WAIT);
    await page.getByRole('heading', { name: 'Inicia sesión en el panel' }).waitFor(WAIT);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'read_only-phone-session-ended');
  });
});
