/**
 * The dashboard's other changes, each through the page and checked in the API: a developer creates an endpoint with
 * basic auth (signing secret shown once), sends a sample optional event that reaches the receiver, and disables the
 * endpoint; an admin uploads a logo (previewed, then shown by the checkout), asks for test mode off, invites a user
 * (temporary password shown once), changes the user's role and removes the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../support/checkout.ts';
import {
  BROWSER_TEST_TIMEOUT,
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
} from './support/dashboard-browser.ts';

/** The smallest valid PNG: one transparent pixel. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('dashboard changes, each visible in the API', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  beforeAll(async () => {
    harness = await startDashboardHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  it('lets a developer create an endpoint with basic auth, see its signing secret once, send a sample event, rotate the secret and disable it', async () => {
    const developer = await harness.invite('developer');
    const { page, errors } = await harness.open(PHONE);
    await signIn(page, developer);
    await useTestData(page);
    await goTo(page, 'Webhooks');
    await page.getByRole('link', { name: 'Nuevo endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nuevo endpoint' }).waitFor(WAIT);
    await page.getByLabel('URL (https)').fill(`${harness.receiver.url}/hooks/basic`);
    await page.getByLabel('Descripción (opcional)').fill('Servidor de la tienda');
    await page.getByRole('checkbox', { name: 'card.authentication_expired' }).check();
    await page.getByLabel('Tipo de autenticación').selectOption('basic');
    await page.getByLabel('Usuario').fill('tienda');
    await page.getByLabel('Contraseña', { exact: true }).fill('clave-del-webhook-1');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'developer-phone-webhook-form');
    await page.getByRole('button', { name: 'Crear endpoint' }).click();

    const secret = page.locator('.secret-value');
    await secret.waitFor(WAIT);
    const firstSecret = (await secret.textContent())!;
    expect(firstSecret).toMatch(/^whsec_/);
    await screenshot(page, 'developer-phone-webhook-secret');
    await page.getByRole('link', { name: 'Cerrar' }).click();
    await page.getByRole('heading', { name: 'Editar endpoint' }).waitFor(WAIT);
    expect(await page.locator('.secret-value').count()).toBe(0);
    const endpointId = new URL(page.url()).hash.split('/')[2]!;
    const stored = (await harness.sandbox.request('GET', `/v1/webhooks/endpoints/${endpointId}`, { key: harness.keys.secretTest })).body;
    expect(stored).toMatchObject({ authType: 'basic', hasBasicAuth: true, description: 'Servidor de la tienda', enabledEvents: ['card.authentication_expired'] });

    await page.getByLabel('Tipo de evento').selectOption('card.authentication_expired');
    await page.getByRole('button', { name: 'Enviar ejemplo' }).click();
    await page.getByText('Evento de ejemplo enviado').waitFor(WAIT);
    await expect.poll(() => harness.receiver.received.filter((r) => r.path === '/hooks/basic' && r.rawBody.includes('"card.authentication_expired"')).length, WAIT).toBe(1);
    const sample = harness.receiver.received.find((r) => r.path === '/hooks/basic')!;
    expect(sample.headers.authorization).toBe(`Basic ${Buffer.from('tienda:clave-del-webhook-1').toString('base64')}`);

    // Rotate the signing secret: asked first, the new one shown once.
    await page.getByRole('button', { name: 'Rotar el secreto' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotar el secreto' }).click();
    const rotated = page.locator('.secret-value');
    await rotated.waitFor(WAIT);
    const newSecret = (await rotated.textContent())!;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(firstSecret);
    await screenshot(page, 'developer-phone-webhook-secret-rotated');

    await page.getByRole('button', { name: 'Desactivar' }).click();
    await page.getByRole('button', { name: 'Activar', exact: true }).waitFor(WAIT);
    expect((await harness.sandbox.request('GET', `/v1/webhooks/endpoints/${endpointId}`, { key: harness.keys.secretTest })).body.status).toBe('disabled');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'developer-phone-webhook-endpoint');
    expect(errors).toEqual([]);
  });

  it('lets an admin upload a logo the checkout shows, ask for test mode off, and invite, change and remove a user', async () => {
    const { page, errors } = await harness.open(DESKTOP);
    await signIn(page, harness.admin);
    await goTo(page, 'Configuración');

    await page.getByLabel(/^Logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    const preview = page.getByRole('img', { name: 'Vista previa del logo' });
    await preview.waitFor(WAIT);
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor(WAIT);
    const settings = (await harness.sandbox.request('GET', '/v1/dashboard/settings', { key: await harness.tokenOf(harness.admin) })).body;
    expect(settings.logoUrl).toMatch(/^\/v1\/checkout\/logos\//);
    await expect.poll(() => page.getByRole('img', { name: 'Vista previa del logo' }).getAttribute('src'), WAIT).toBe(settings.logoUrl);
    // The checkout reads the merchant through the API's cache (keyCacheTtlMs): move the sandbox clock past it
    // instead of waiting it out.
    harness.sandbox.advance(harness.sandbox.deps.config.keyCacheTtlMs / 1000);
    const session = await openSession(harness.sandbox, harness.keys.secretTest, { amountMinor: 5000 });
    const checkout = await page.context().newPage();
    await expect
      .poll(async () => {
        await checkout.goto(session.checkoutUrl);
        await checkout.locator('#merchant-name').waitFor(WAIT);
        return checkout.locator('#merchant-logo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && new URL(img.src).pathname);
      }, { timeout: 90_000 })
      .toBe(settings.logoUrl);
    await checkout.close();

    // Bank credentials that are not a JSON object are refused by the page, in the user's words, the text kept.
    const gateway = page.locator('.gateway').first();
    await gateway.getByLabel(/^Contenido JSON/).fill('{"apiKey": "sin cerrar"');
    await gateway.getByRole('button', { name: 'Cargar credenciales' }).click();
    await page.getByText('El contenido no es un objeto JSON válido.').waitFor(WAIT);
    expect(await gateway.getByLabel(/^Contenido JSON/).inputValue()).toBe('{"apiKey": "sin cerrar"');
    // A file the bank gave is read into the field.
    await gateway.getByLabel(/^Archivo JSON/).setInputFiles({ name: 'credenciales.json', mimeType: 'application/json', buffer: Buffer.from('{"apiKey":"desde-archivo"}') });
    await expect.poll(() => gateway.getByLabel(/^Contenido JSON/).inputValue(), WAIT).toBe('{"apiKey":"desde-archivo"}');
    await gateway.getByRole('button', { name: 'Cargar credenciales' }).click();
    await page.getByText('Credenciales cargadas.').waitFor(WAIT);
    expect(await page.content()).not.toContain('desde-archivo');

    // Test mode: on for the sandbox bank; the admin asks for it off and sees the request pending.
    const testMode = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Modo de prueba' }) });
    await testMode.getByRole('button', { name: 'Solicitar desactivarlo · Banco (conexión directa)' }).click();
    await page.getByText('Solicitud enviada al equipo de la plataforma.').waitFor(WAIT);
    await testMode.getByText(/Solicitar desactivarlo: pendiente/).waitFor(WAIT);
    expect((await harness.sandbox.request('GET', '/v1/dashboard/settings', { key: await harness.tokenOf(harness.admin) })).body.testMode.bank_direct.request).toMatchObject({ enabled: false, status: 'pending' });

    // Users: invite (temporary password shown once), change the role, remove.
    const users = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Usuarios', exact: true }) });
    await users.getByLabel('Correo').fill('nuevo.usuario@tienda.example');
    await users.getByLabel('Rol', { exact: true }).selectOption('developer');
    await users.getByRole('button', { name: 'Invitar' }).click();
    const temporary = users.locator('.secret-value');
    await temporary.waitFor(WAIT);
    expect((await temporary.textContent())!.length).toBeGreaterThanOrEqual(12);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'admin-desktop-user-invited');
    await users.getByRole('cell', { name: 'nuevo.usuario@tienda.example', exact: true }).waitFor(WAIT);
    await users.getByLabel('Rol de nuevo.usuario@tienda.example').selectOption('read_only');
    await page.getByText('Cambios guardados.').waitFor(WAIT);
    const listed = async () => (await harness.sandbox.request('GET', '/v1/dashboard/users', { key: await harness.tokenOf(harness.admin) })).body.data as { email: string; role: string }[];
    await expect.poll(async () => (await listed()).find((u) => u.email === 'nuevo.usuario@tienda.example')?.role, WAIT).toBe('read_only');
    await users.getByRole('button', { name: 'Quitar nuevo.usuario@tienda.example' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Quitar' }).click();
    await users.getByRole('cell', { name: 'nuevo.usuario@tienda.example', exact: true }).waitFor({ state: 'detached', ...WAIT });
    expect((await listed()).some((u) => u.email === 'nuevo.usuario@tienda.example')).toBe(false);
    expect(errors).toEqual([]);
  });
});
