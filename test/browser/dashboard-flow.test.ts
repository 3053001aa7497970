/**
 * Issue 15's "done when", in a real browser against the sandbox: a merchant admin signs in, finds a declined payment
 * by the card's last four and reads why it failed, resends a failed webhook, ticks an optional event, rolls a key and
 * sees the new secret once, uploads bank credentials and sets the business name the checkout then shows. A
 * read-only user can do none of it: the page offers no control, and the API refuses the calls with 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_REVOCATION_BOUND_MS } from '../../shared/auth/authenticator.ts';
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
  until,
  type DashboardUserLogin,
} from './support/dashboard-browser.ts';

const CUSTOMER = 'cliente-ana-42';
const BANK_CREDENTIALS = { merchantCode: 'VE-0042-CAFE', apiKey: 'bk_live_9fJ2xq2LmZ8rT1vB6nW3kY5a', terminal: 'T-17' };
const BUSINESS_NAME = 'Panadería La Ceiba';

describe('dashboard: the merchant flow of issue 15', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  let endpointId: string;
  let paymentReference: string;
  /** The receiver's /failing path answers 500 until the merchant "fixes" it. */
  let receiverFixed = false;

  beforeAll(async () => {
    harness = await startDashboardHarness((request) => (request.path.startsWith('/failing') && !receiverFixed ? { status: 500, body: '{"error":"down"}' } : undefined));
    const endpoint = await harness.sandbox.request('POST', '/v1/webhooks/endpoints', { key: harness.keys.secretTest, body: { url: `${harness.receiver.url}/failing`, description: 'Tienda (servidor caído)' } });
    expect(endpoint.status).toBe(201);
    endpointId = endpoint.body.id;
    paymentReference = (await checkoutPayment(harness, CUSTOMER, 'declined')).reference;
    await checkoutPayment(harness, CUSTOMER, 'approved');
    // The charge.declined delivery has failed once and waits for its next retry.
    await until(
      async () => (await harness.sandbox.request('GET', `/v1/webhooks/deliveries?endpointId=${endpointId}`, { key: harness.keys.secretTest })).body?.data?.find((d: { eventType: string }) => d.eventType === 'charge.declined')?.lastStatusCode,
      (status) => status === 500,
    );
  }, 120_000);
  afterAll(() => harness?.close());

  it('lets an admin do every change the issue names, each one visible in the API afterwards', async () => {
    const { page, errors } = await harness.open(DESKTOP);
    await signIn(page, harness.admin);
    await useTestData(page);

    // Find the declined payment by the card's last four and read why it failed.
    await goTo(page, 'Pagos');
    await page.getByLabel('Últimos 4 dígitos').fill('0002');
    // With its amount, as a Venezuelan merchant writes it: a thousands separator is refused, not misread as 1,25.
    const amount = page.getByLabel('Monto', { exact: true });
    await amount.fill('1.250,50');
    await page.getByRole('button', { name: 'Buscar' }).click();
    expect(await amount.evaluate((input: HTMLInputElement) => input.validationMessage)).toContain('sin separador de miles');
    await amount.fill('1250,50');
    await page.getByRole('button', { name: 'Buscar' }).click();
    const row = page.getByRole('link', { name: paymentReference });
    await row.waitFor(WAIT);
    expect(new URL(page.url()).hash).toContain('amountMinor=125050');
    expect(await amount.inputValue()).toBe('1250,50');
    expect(await page.locator('tbody tr').count()).toBe(1);
    await screenshot(page, 'flow-desktop-payments-last-four');
    await row.click();
    await page.getByRole('heading', { level: 1, name: new RegExp(paymentReference) }).waitFor(WAIT);
    const reason = page.locator('.decline-reason');
    await reason.waitFor(WAIT);
    expect(await reason.textContent()).toMatch(/Mensaje del banco:.*fondos/i);
    expect(await page.locator('.facts').first().textContent()).toContain(CUSTOMER);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flow-desktop-payment-detail');

    // On the endpoint: tick an optional gateway event, then resend the failed delivery of the payment's
    // charge.declined event, now that the merchant's server answers again.
    await goTo(page, 'Webhooks');
    await page.getByRole('link', { name: /\/failing$/ }).click();
    await page.getByRole('heading', { name: 'Editar endpoint' }).waitFor(WAIT);
    await page.getByRole('checkbox', { name: 'card.authentication_expiring' }).check();
    await page.getByRole('checkbox', { name: 'charge.declined' }).check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor(WAIT);
    const endpoint = await harness.sandbox.request('GET', `/v1/webhooks/endpoints/${endpointId}`, { key: harness.keys.secretTest });
    expect(endpoint.body.enabledEvents).toEqual(expect.arrayContaining(['card.authentication_expiring', 'charge.declined']));

    const failed = page.getByRole('row').filter({ hasText: 'charge.declined' });
    expect(await failed.locator('.badge').first().textContent()).toBe('Reintentando');
    expect(await failed.getByText('HTTP 500').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flow-desktop-endpoint');
    receiverFixed = true;
    await failed.getByRole('button', { name: /^Reenviar charge\.declined/ }).click();
    await page.getByText('Reenvío en curso').waitFor(WAIT);
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByRole('heading', { name: 'Registro de envíos' }).waitFor(WAIT);
        await page.locator('.view > .loading').waitFor({ state: 'detached', ...WAIT });
        return page.getByRole('row').filter({ hasText: 'charge.declined' }).locator('.badge').first().textContent();
      }, { timeout: 60_000 })
      .toBe('Entregado');
    expect(harness.receiver.received.some((r) => r.path === '/failing' && r.rawBody.includes('"charge.declined"'))).toBe(true);
    await screenshot(page, 'flow-desktop-endpoint-resent');

    // The payment's detail lists the deliveries of its events, the resent one delivered.
    await page.goto(`${harness.sandbox.url}/dashboard/#/payments/${paymentReference}`);
    const delivered = page.getByRole('row').filter({ hasText: 'charge.declined' });
    await delivered.waitFor(WAIT);
    expect(await delivered.locator('.badge').first().textContent()).toBe('Entregado');
    expect(await delivered.getByRole('button', { name: /^Reenviar charge\.declined/ }).count()).toBe(1);

    // Upload the bank credentials: accepted, then only "loaded on <date>", never their content.
    await goTo(page, 'Configuración');
    const gateway = page.locator('.gateway').first();
    await gateway.getByLabel(/^Contenido JSON/).fill(JSON.stringify(BANK_CREDENTIALS));
    await gateway.getByRole('button', { name: 'Cargar credenciales' }).click();
    await page.getByText('Credenciales cargadas.').waitFor(WAIT);
    await page.locator('.gateway').first().getByText(/^Cargadas el /).waitFor(WAIT);
    const settings = (await harness.sandbox.request('GET', '/v1/dashboard/settings', { key: await harness.tokenOf(harness.admin) })).body;
    expect(Object.values(settings.credentials as Record<string, { loaded: boolean }>).some((c) => c.loaded)).toBe(true);
    const shown = await page.content();
    for (const secret of Object.values(BANK_CREDENTIALS)) expect(shown).not.toContain(secret);
    expect(JSON.stringify(settings)).not.toContain(BANK_CREDENTIALS.apiKey);

    // Set the business name.
    await page.getByLabel('Nombre del negocio').fill(BUSINESS_NAME);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor(WAIT);
    expect(await page.locator('.topbar .business').textContent()).toBe(BUSINESS_NAME);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flow-desktop-settings');

    // Roll the secret test key: the new secret is shown once, works, and the old key stops working.
    await goTo(page, 'Desarrolladores');
    await page.getByRole('button', { name: /^Renovar sk_test_/ }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Renovar' }).click();
    const secret = page.locator('.secret-value');
    await secret.waitFor(WAIT);
    const newKey = (await secret.textContent())!;
    expect(newKey).toMatch(/^sk_test_/);
    expect(newKey).not.toBe(harness.keys.secretTest);
    await page.getByText('Copia este secreto ahora: no volverá a mostrarse.').waitFor(WAIT);
    await page.getByRole('button', { name: 'Copiar' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), WAIT).toBe(newKey);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'flow-desktop-key-rolled');
    expect((await harness.sandbox.request('GET', '/v1/sessions', { key: newKey })).status).toBe(200);
    // The old key is refused once the API's key cache lets it go (KEY_REVOCATION_BOUND_MS): move the sandbox clock.
    harness.sandbox.advance(KEY_REVOCATION_BOUND_MS / 1000);
    await expect.poll(async () => (await harness.sandbox.request('GET', '/v1/sessions', { key: harness.keys.secretTest })).status, { timeout: 60_000 }).toBe(401);
    // Shown once: back on the page, only the prefix and last characters remain.
    await goTo(page, 'Resumen');
    await goTo(page, 'Desarrolladores');
    expect(await page.locator('.secret-value').count()).toBe(0);
    expect(await page.content()).not.toContain(newKey);
    await page.getByText(`sk_test_…${newKey.slice(-4)}`).waitFor(WAIT);

    // The checkout now names the business to its buyers, once the API's merchant cache (keyCacheTtlMs) lets the old
    // name go: the sandbox clock is moved past it instead of waiting.
    harness.sandbox.advance(harness.sandbox.deps.config.keyCacheTtlMs / 1000);
    const session = await openSession(harness.sandbox, newKey, { amountMinor: 5000 });
    const checkout = await page.context().newPage();
    await expect
      .poll(async () => {
        await checkout.goto(session.checkoutUrl);
        await checkout.locator('#merchant-name').waitFor(WAIT);
        return checkout.locator('#merchant-name').textContent();
      }, { timeout: 90_000 })
      .toBe(BUSINESS_NAME);

    // Every change is in the audit log the admin reads, on its own page.
    await goTo(page, 'Auditoría', 'Registro de auditoría');
    const audit = page.getByRole('group', { name: 'Registro de auditoría' });
    for (const action of ['key.rolled', 'bank_credentials.loaded', 'settings.updated', 'webhook_endpoint.updated', 'webhook_delivery.resent']) {
      await audit.getByText(action, { exact: true }).first().waitFor(WAIT);
    }
    expect(errors).toEqual([]);
  });

  describe('a read-only user', () => {
    let reader: DashboardUserLogin;
    let token: string;
    beforeAll(async () => {
      reader = await harness.invite('read_only');
      token = await harness.tokenOf(reader);
    });

    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      it(`sees the same payment and endpoint on ${name} but is offered none of the changes`, async () => {
        const { page, errors } = await harness.open(viewport);
        await signIn(page, reader);
        await useTestData(page);
        expect(await page.locator('.role').textContent()).toBe('Solo lectura');

        await page.goto(`${harness.sandbox.url}/dashboard/#/payments/${paymentReference}`);
        await page.locator('.decline-reason').waitFor(WAIT);
        expect(await page.getByRole('button', { name: /^Reenviar/ }).count()).toBe(0);
        await screenshot(page, `read-only-${name}-payment-detail`);

        await page.goto(`${harness.sandbox.url}/dashboard/#/webhooks/${endpointId}`);
        await page.getByRole('heading', { name: 'Editar endpoint' }).waitFor(WAIT);
        expect(await page.getByRole('checkbox', { name: 'card.authentication_expired' }).isDisabled()).toBe(true);
        for (const label of ['Guardar', 'Desactivar', 'Rotar el secreto', 'Eliminar', 'Enviar ejemplo', 'Reenviar']) {
          expect(await page.getByRole('button', { name: label }).count(), label).toBe(0);
        }
        await page.getByText('Tu rol es de solo lectura').first().waitFor(WAIT);

        // No Developers page at all, and no key to roll.
        expect(await page.getByRole('navigation', { name: 'Secciones del panel' }).getByRole('link', { name: 'Desarrolladores' }).count()).toBe(0);

        await goTo(page, 'Configuración');
        expect(await page.getByLabel('Nombre del negocio').isDisabled()).toBe(true);
        expect(await page.getByRole('button', { name: 'Cargar credenciales' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Guardar' }).count()).toBe(0);
        expect(await page.getByRole('heading', { name: 'Usuarios' }).count()).toBe(0);
        expect(await page.getByRole('heading', { name: 'Registro de auditoría' }).count()).toBe(0);

        await page.goto(`${harness.sandbox.url}/dashboard/#/cards?customerRef=${CUSTOMER}`);
        await page.getByText('Visa •••• 1111').first().waitFor(WAIT);
        expect(await page.getByRole('button', { name: /^Eliminar/ }).count()).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      });
    }

    it('is refused with 403 by the API when calling the changes directly with its token', async () => {
      const as = (method: string, path: string, body?: unknown) => harness.sandbox.request(method, path, { key: token, body, headers: { 'svc-mode': 'test' } });
      const delivery = (await as('GET', `/v1/webhooks/deliveries?endpointId=${endpointId}`)).body.data[0];
      const keys = (await harness.sandbox.request('GET', '/v1/dashboard/keys', { key: await harness.tokenOf(harness.admin) })).body.data;
      const refused = [
        await as('POST', `/v1/webhooks/deliveries/${delivery.id}/retry`),
        await as('PATCH', `/v1/webhooks/endpoints/${endpointId}`, { enabledEvents: ['card.authentication_expired'] }),
        await as('POST', `/v1/webhooks/endpoints/${endpointId}/test?type=charge.approved`),
        await as('POST', `/v1/dashboard/keys/${keys[0].id}/roll`),
        await as('GET', '/v1/dashboard/keys'),
        await as('PUT', '/v1/dashboard/bank-credentials/bank_direct', BANK_CREDENTIALS),
        await as('PATCH', '/v1/dashboard/settings', { businessName: 'Otro nombre' }),
        await as('DELETE', '/v1/cards/tok_svc_doesnotmatter'),
      ];
      for (const answer of refused) expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 403, code: 'insufficient_permissions' });
      const endpoint = await harness.sandbox.request('GET', `/v1/webhooks/endpoints/${endpointId}`, { key: token, headers: { 'svc-mode': 'test' } });
      expect(endpoint.body.enabledEvents).not.toContain('card.authentication_expired');
    });
  });
});
