/**
 * Issue 24's dashboard rough edges, each in Chromium on desktop and on a 390 px phone with axe-core: a sandbox
 * merchant with only test payments is led to them; a read-only user's empty pages invite nothing they cannot do;
 * brands, gateways and statuses by their names (Spanish and English); the bank's English technical text labelled as
 * such; the credentials card's load date from the API; the audit log on its own page, paged, with readable targets;
 * and no page that scrolls sideways at 390 px, the overview chart's labels inside the picture.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { openSession } from '../support/checkout.ts';
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

const CUSTOMER = 'cliente-bordes-24';
const DEVICES = [['desktop', DESKTOP], ['phone', PHONE]] as const;
const AUDIT_PAGE_SIZE = 20;

/**
 * What sticks out to the right of the viewport: the page's scroll width, and the outermost elements beyond it that no
 * scrolling or clipping box holds (the navigation strip and the tables scroll inside their own box, by design).
 */
async function sidewaysOverflow(page: Page): Promise<{ scrollWidth: number; viewport: number; beyond: string[] }> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const held = (element: HTMLElement): boolean => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) if (getComputedStyle(box).overflowX !== 'visible') return true;
      return false;
    };
    const beyond = Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((element) => element.getBoundingClientRect().right > viewport + 0.5 && !held(element) && !(element.parentElement && element.parentElement.getBoundingClientRect().right > viewport + 0.5))
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(element.getBoundingClientRect().right)}`);
    return { scrollWidth: document.documentElement.scrollWidth, viewport, beyond };
  });
}

async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('main h1').waitFor(WAIT);
  await page.locator('.view > .loading').waitFor({ state: 'detached', ...WAIT });
}

describe('dashboard rough edges of issue 24', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  let reader: DashboardUserLogin;
  let developer: DashboardUserLogin;
  let declinedReference: string;
  let approvedReference: string;

  beforeAll(async () => {
    harness = await startDashboardHarness();
    reader = await harness.invite('read_only');
    developer = await harness.invite('developer');
    declinedReference = (await checkoutPayment(harness, CUSTOMER, 'declined')).reference;
    approvedReference = (await checkoutPayment(harness, CUSTOMER, 'approved')).reference;
  }, 120_000);
  afterAll(() => harness?.close());

  for (const [device, viewport] of DEVICES) {
    it(`leads a sandbox merchant with only test payments to them (${device})`, async () => {
      const { page, errors } = await harness.open(viewport);
      await signIn(page, harness.admin);
      // Nothing chosen yet: the dashboard shows live data, of which this merchant has none.
      expect(await page.getByRole('switch', { name: 'Datos de prueba' }).getAttribute('aria-checked')).toBe('false');
      await page.getByRole('heading', { level: 1, name: 'Resumen' }).waitFor(WAIT);
      await page.getByText('Ningún pago real en los últimos 30 días.').waitFor(WAIT);
      await screenshot(page, `edges-${device}-overview-live-empty`);
      await page.getByRole('button', { name: 'Ver los datos de prueba' }).waitFor(WAIT);
      await goTo(page, 'Pagos');
      expect(await page.getByText('Ningún pago coincide con la búsqueda.').count()).toBe(0);
      await page.getByText('Todavía no hay pagos reales.').waitFor(WAIT);
      expect(await page.locator('main').textContent()).toContain('Los pagos hechos con tus claves de prueba están en «Datos de prueba».');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `edges-${device}-payments-live-empty`);
      await page.getByRole('button', { name: 'Ver los datos de prueba' }).click();
      await page.locator('.test-banner').waitFor(WAIT);
      expect(await page.getByRole('switch', { name: 'Datos de prueba' }).getAttribute('aria-checked')).toBe('true');
      await page.getByRole('link', { name: declinedReference }).waitFor(WAIT);
      await page.getByRole('heading', { level: 1, name: 'Pagos' }).waitFor(WAIT);
      // A search that finds nothing still says so.
      await page.goto(`${harness.sandbox.url}/dashboard/#/payments?lastFour=9999`);
      await page.getByText('Ningún pago coincide con la búsqueda.').waitFor(WAIT);
      expect(errors).toEqual([]);
    });
  }

  for (const [device, viewport] of DEVICES) {
    it(`offers a read-only user no endpoint to create on the empty webhooks page, and a developer one (${device})`, async () => {
      const { page, errors } = await harness.open(viewport);
      await signIn(page, reader);
      await useTestData(page);
      await goTo(page, 'Webhooks');
      const endpoints = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Endpoints' }) });
      await endpoints.getByText('Todavía no hay endpoints.').waitFor(WAIT);
      expect(await endpoints.textContent()).not.toMatch(/Crea uno/);
      expect(await endpoints.textContent()).toContain('Un desarrollador o un administrador de tu equipo puede crearlos.');
      expect(await page.getByRole('link', { name: 'Nuevo endpoint' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `edges-${device}-read-only-webhooks-empty`);

      const other = await harness.open(viewport);
      await signIn(other.page, developer);
      await useTestData(other.page);
      await goTo(other.page, 'Webhooks');
      await other.page.getByText('Todavía no hay endpoints. Crea uno para recibir los eventos de tus pagos.').waitFor(WAIT);
      await other.page.getByRole('link', { name: 'Nuevo endpoint' }).waitFor(WAIT);
      expect(errors).toEqual([]);
    });
  }

  it('names brands, gateways and statuses for people, in Spanish and English, and labels the bank’s English text', async () => {
    const { page, errors } = await harness.open(DESKTOP);
    await signIn(page, reader);
    await useTestData(page);
    await goTo(page, 'Pagos');
    const declinedRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: declinedReference }) });
    const approvedRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: approvedReference }) });
    await declinedRow.waitFor(WAIT);
    expect(await declinedRow.locator('.badge').first().textContent()).toBe('No aprobada');
    expect(await approvedRow.locator('.badge').first().textContent()).toBe('Pagada');
    expect(await approvedRow.textContent()).toContain('Visa •••• 1111');
    expect(await page.locator('main').textContent()).not.toMatch(/visa •••• /);
    await screenshot(page, 'edges-desktop-payments-names');

    await declinedRow.getByRole('link', { name: declinedReference }).click();
    await page.locator('.attempt').first().waitFor(WAIT);
    const attempt = page.locator('.attempt').first();
    expect(await attempt.locator('.badge').first().textContent()).toBe('Rechazado');
    const facts = Object.fromEntries(await attempt.locator('.facts dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
    expect(facts['Pasarela']).toBe('Banco (conexión directa)');
    expect(facts['Tarjeta']).toBe('Visa •••• 0002');
    const technical = attempt.locator('dt', { hasText: 'Texto técnico del banco' });
    expect(await technical.textContent()).toBe('Texto técnico del banco (en inglés, sin traducir)');
    const technicalValue = technical.locator('xpath=following-sibling::dd[1]/span[@lang="en"]');
    expect((await technicalValue.textContent())!.length).toBeGreaterThan(0);
    expect(await page.locator('main').textContent()).not.toMatch(/bank_direct|card_processor|bank_otp/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'edges-desktop-payment-detail-names');

    await page.goto(`${harness.sandbox.url}/dashboard/#/cards?customerRef=${CUSTOMER}`);
    await page.getByRole('cell', { name: 'Visa •••• 1111' }).waitFor(WAIT);

    await goTo(page, 'Configuración');
    const testMode = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Modo de prueba' }) });
    await testMode.getByRole('cell', { name: 'Banco (conexión directa)' }).waitFor(WAIT);
    expect(await page.locator('main').textContent()).not.toMatch(/bank_direct|card_processor|bank_otp/);

    await page.getByLabel('Idioma').selectOption('en');
    await page.goto(`${harness.sandbox.url}/dashboard/#/payments`);
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor(WAIT);
    const englishRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: declinedReference }) });
    await englishRow.waitFor(WAIT);
    expect(await englishRow.locator('.badge').first().textContent()).toBe('Not approved');
    await page.goto(`${harness.sandbox.url}/dashboard/#/payments/${declinedReference}`);
    await page.locator('.attempt').first().waitFor(WAIT);
    expect(await page.locator('.attempt .badge').first().textContent()).toBe('Declined');
    await page.locator('.attempt dt', { hasText: 'Bank’s technical text (untranslated)' }).waitFor(WAIT);
    await page.locator('.attempt dd', { hasText: 'Bank (direct connection)' }).waitFor(WAIT);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'edges-desktop-payment-detail-english');
    expect(errors).toEqual([]);
  });

  it('marks a test session nobody has tried to pay as a test payment on its page', async () => {
    // Its page has no attempt to read the mode from: the session's own mode says it.
    const unpaid = await openSession(harness.sandbox, harness.keys.secretTest, { amountMinor: 990, customerRef: CUSTOMER });
    const { page, errors } = await harness.open(DESKTOP);
    // The read-only user: the file's admin sign-ins stay under the per-email limit (10 a minute).
    await signIn(page, reader);
    await useTestData(page);
    await page.goto(`${harness.sandbox.url}/dashboard/#/payments/${unpaid.reference}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(unpaid.reference) }).waitFor(WAIT);
    expect(await page.locator('main h1 .badge.test').textContent()).toBe('Prueba');
    expect(errors).toEqual([]);
  });

  it('shows when each gateway’s credentials were loaded, as the settings API answers it', async () => {
    // One gateway loaded by the platform team (the admin CLI's path), one by the admin on the page.
    await loadBankCredentials(harness.sandbox.deps, harness.merchant.id, 'card_processor', JSON.stringify({ apiKey: 'processor-key' }));
    for (const [device, viewport] of DEVICES) {
      const { page, errors } = await harness.open(viewport);
      await signIn(page, harness.admin);
      await goTo(page, 'Configuración');
      const direct = page.locator('.gateway', { hasText: 'Banco (conexión directa)' });
      if (device === 'desktop') {
        await direct.getByText('Sin cargar').waitFor(WAIT);
        await direct.getByLabel(/^Contenido JSON/).fill(JSON.stringify({ apiKey: 'live-key' }));
        await direct.getByRole('button', { name: 'Cargar credenciales' }).click();
        await page.getByText('Credenciales cargadas.').waitFor(WAIT);
      }
      const settings = (await harness.sandbox.request('GET', '/v1/dashboard/settings', { key: await harness.tokenOf(harness.admin) })).body;
      for (const [gateway, name] of [['bank_direct', 'Banco (conexión directa)'], ['card_processor', 'Procesador de tarjetas']] as const) {
        const loadedAt: string = settings.credentials[gateway].loadedAt;
        expect(settings.credentials[gateway].loaded).toBe(true);
        expect(Math.abs(Date.parse(loadedAt) - Date.now())).toBeLessThan(10 * 60_000);
        const day = await page.evaluate((iso) => new Intl.DateTimeFormat('es-VE', { dateStyle: 'medium' }).format(new Date(iso)), loadedAt);
        await page.locator('.gateway', { hasText: name }).locator('.badge', { hasText: `Cargadas el ${day}` }).waitFor(WAIT);
      }
      expect(settings.credentials.bank_otp).toEqual({ loaded: false, loadedAt: null });
      expect(await page.locator('.gateway .badge', { hasText: '—' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `edges-${device}-settings-credentials`);
      expect(errors).toEqual([]);
    }
  });

  it('keeps the audit log on its own page, a page at a time, with readable targets and one-line dates', async () => {
    // A minute after the tests before, as a person would come back: two-step codes no longer wait for real time (an
    // injectable authenticator clock), so the file's earlier admin sign-ins would otherwise share this one's minute
    // and meet the per-email sign-in limit (10 a minute).
    harness.sandbox.advance(60);
    const token = await harness.tokenOf(harness.admin);
    const as = (method: string, path: string, body?: unknown) => harness.sandbox.request(method, path, { key: token, body, headers: { 'svc-mode': 'test' } });
    for (let i = 0; i < AUDIT_PAGE_SIZE + 3; i++) expect((await as('PATCH', '/v1/dashboard/settings', { businessName: `Tienda ${i}` })).status).toBe(200);
    const keys = (await as('GET', '/v1/dashboard/keys')).body.data as { id: string; kind: string; mode: string; status: string }[];
    const secretTest = keys.find((k) => k.kind === 'secret' && k.mode === 'test' && k.status === 'active')!;
    const rolled = (await as('POST', `/v1/dashboard/keys/${secretTest.id}/roll`)).body;
    const newHint = `sk_test_…${(rolled.secret as string).slice(-4)}`;

    for (const [device, viewport] of DEVICES) {
      const { page, errors } = await harness.open(viewport);
      await signIn(page, harness.admin);
      await goTo(page, 'Configuración');
      expect(await page.getByRole('heading', { name: 'Registro de auditoría' }).count()).toBe(0);
      const settingsHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(settingsHeight, 'Settings page height').toBeLessThan(device === 'desktop' ? 3_000 : 5_000);

      await goTo(page, 'Auditoría', 'Registro de auditoría');
      const rows = page.locator('tbody tr');
      await expect.poll(() => rows.count(), WAIT).toBe(AUDIT_PAGE_SIZE);
      const text = (await page.locator('main').textContent())!;
      expect(text).not.toMatch(/[0-9a-f]{64}/);
      const keyRow = page.getByRole('row').filter({ hasText: 'Clave renovada' });
      expect(await keyRow.textContent()).toContain(newHint);
      expect(await keyRow.textContent()).toContain('Secreta · Prueba');
      await page.getByRole('row').filter({ hasText: 'Configuración cambiada' }).first().getByText('Nombre del negocio: Tienda').waitFor(WAIT);
      // Each date on one line.
      const dateCells = await page.locator('tbody tr td:first-child time').evaluateAll((times) => times.map((time) => ({ height: time.getBoundingClientRect().height, line: parseFloat(getComputedStyle(time).lineHeight) })));
      for (const cell of dateCells) expect(cell.height).toBeLessThan(cell.line * 1.5);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `edges-${device}-audit-first-page`);
      const first = await rows.first().textContent();
      await page.getByRole('button', { name: 'Siguiente' }).click();
      await expect.poll(async () => rows.first().textContent(), WAIT).not.toBe(first);
      expect(await rows.count()).toBeGreaterThan(0);
      await screenshot(page, `edges-${device}-audit-second-page`);
      await page.getByRole('button', { name: 'Anterior' }).click();
      await expect.poll(async () => rows.first().textContent(), WAIT).toBe(first);
      expect(errors).toEqual([]);
    }
  });

  it('scrolls no page sideways on a 390 px phone, for an admin and a read-only user, and keeps the chart’s labels whole', async () => {
    // Live payments for the overview's chart.
    await loadBankCredentials(harness.sandbox.deps, harness.merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'live-key' }));
    await checkoutPayment(harness, CUSTOMER, 'approved', harness.keys.secretLive);
    // The test secret key was rolled above: the endpoint is made with the admin's token, as the page makes it.
    const endpoint = await harness.sandbox.request('POST', '/v1/webhooks/endpoints', { key: await harness.tokenOf(harness.admin), headers: { 'svc-mode': 'test' }, body: { url: `${harness.receiver.url}/hooks/un-endpoint-con-una-ruta-bastante-larga`, description: 'Servidor de la tienda' } });
    expect(endpoint.status).toBe(201);
    for (const user of [harness.admin, reader]) {
      const { page, errors } = await harness.open(PHONE);
      await page.getByRole('button', { name: 'Iniciar sesión' }).waitFor(WAIT);
      const signInPage = await sidewaysOverflow(page);
      expect({ fits: signInPage.scrollWidth <= signInPage.viewport, beyond: signInPage.beyond }, 'sign-in').toEqual({ fits: true, beyond: [] });
      await signIn(page, user);
      const ves = page.locator('section.panel', { has: page.getByRole('heading', { name: 'VES', exact: true }) });
      await ves.locator('svg.chart').waitFor(WAIT);
      const labels = await ves.locator('svg.chart').evaluate((chart: SVGSVGElement) => {
        const box = chart.getBoundingClientRect();
        return Array.from(chart.querySelectorAll("text")).map((text) => {
          const r = text.getBoundingClientRect();
          return { text: text.textContent, inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 };
        });
      });
      expect(labels.filter((l) => !l.inside)).toEqual([]);
      await screenshot(page, `edges-phone-${user.role}-overview-live`);
      await useTestData(page);
      const visits: [string, string][] = [
        ['#/overview', 'overview'],
        ['#/payments', 'payments'],
        [`#/payments/${declinedReference}`, 'payment-declined'],
        [`#/payments/${approvedReference}`, 'payment-approved'],
        [`#/cards?customerRef=${CUSTOMER}`, 'cards'],
        ['#/webhooks', 'webhooks'],
        [`#/webhooks/${endpoint.body.id}`, 'webhook-endpoint'],
        ['#/webhooks/new', 'webhook-new'],
        ['#/developers', 'developers'],
        ['#/settings', 'settings'],
        ['#/audit', 'audit'],
        ['#/security', 'security'],
      ];
      for (const [hash, name] of visits) {
        await openPage(page, `${harness.sandbox.url}/dashboard/${hash}`);
        const overflow = await sidewaysOverflow(page);
        expect({ fits: overflow.scrollWidth <= overflow.viewport, beyond: overflow.beyond }, hash).toEqual({ fits: true, beyond: [] });
        expect(await seriousViolations(page), hash).toEqual([]);
        await screenshot(page, `edges-phone-${user.role}-${name}`);
      }
      expect(errors).toEqual([]);
    }
  });
});
