/**
 * Two-step verification through the dashboard's pages, on desktop and phone: a user turns it on from "Seguridad" (the
 * password again, the QR code and the key as text, the app's first code), signs out, signs in with a code from the
 * app, and turns it off with password and code. axe-core at zero serious or critical findings on each step;
 * screenshots under test-artifacts/dashboard/mfa-*.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuthenticator } from '../support/totp-codes.ts';
import {
  BROWSER_TEST_TIMEOUT,
  CHOSEN_PASSWORD,
  DESKTOP,
  goTo,
  PHONE,
  screenshot,
  seriousViolations,
  signIn,
  startDashboardHarness,
  WAIT,
  type DashboardHarness,
} from './support/dashboard-browser.ts';

describe('dashboard two-step verification', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  beforeAll(async () => {
    harness = await startDashboardHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  for (const [device, viewport, role] of [['desktop', DESKTOP, 'read_only'], ['phone', PHONE, 'developer']] as const) {
    it(`${device}, a ${role} user: turns it on with the QR code's key, signs in with a code, turns it off`, async () => {
      const user = await harness.invite(role);
      const { page, errors } = await harness.open(viewport);
      await signIn(page, user);
      if (device === 'phone') expect(await page.getByRole('navigation', { name: 'Secciones del panel' }).getByRole('link', { name: 'Seguridad' }).isVisible()).toBe(true);
      await goTo(page, 'Seguridad', 'Seguridad de la cuenta');
      await expect.poll(() => page.locator('.mfa-state').textContent(), WAIT).toContain('Desactivada');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `mfa-${device}-off`);

      // Turn on: the password again, then the QR code and the key.
      await page.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
      await page.getByLabel('Contraseña', { exact: true }).fill('Not-my-password-1');
      await page.getByRole('button', { name: 'Continuar' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toBe('La contraseña no es correcta.');
      await page.getByLabel('Contraseña', { exact: true }).fill(CHOSEN_PASSWORD);
      const enrolment = page.waitForResponse((response) => response.url().endsWith('/v1/dashboard/me/mfa/enrolment') && response.status() === 200, WAIT);
      await page.getByRole('button', { name: 'Continuar' }).click();
      const { otpauthUri } = (await (await enrolment).json()) as { otpauthUri: string };
      const qr = page.getByRole('img', { name: 'Código QR para añadir esta cuenta a tu aplicación de autenticación' });
      await qr.waitFor(WAIT);
      // The QR code is drawn (a 200 px PNG made in the page) and the key shown is the one the URI carries.
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), WAIT).toBe(200);
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      const secret = ((await page.locator('.mfa-key').textContent()) ?? '').replaceAll(' ', '');
      expect(new URL(otpauthUri).searchParams.get('secret')).toBe(secret);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `mfa-${device}-scan`);

      const app = testAuthenticator(secret, harness.sandbox.authenticatorClock);
      const code = page.getByLabel('Código de 6 dígitos');
      await code.fill('12');
      await page.getByRole('button', { name: 'Activar', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toBe('Escribe los 6 dígitos del código.');
      await code.fill(await app.nextCode());
      await page.getByRole('button', { name: 'Activar', exact: true }).click();
      await expect.poll(() => page.locator('.mfa-state').textContent(), WAIT).toContain('Activada');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'está activada' }).count(), WAIT).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `mfa-${device}-on`);

      // Sign out, and in again: the password, then a code from the app.
      await page.getByRole('button', { name: 'Cerrar sesión' }).click();
      await page.getByLabel('Correo electrónico').fill(user.email);
      await page.getByLabel('Contraseña', { exact: true }).fill(CHOSEN_PASSWORD);
      await page.getByRole('button', { name: 'Iniciar sesión' }).click();
      await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor(WAIT);
      await page.getByLabel('Código de verificación').fill('000000');
      await page.getByRole('button', { name: 'Verificar' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toBe('El código no es correcto. Inténtalo de nuevo.');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `mfa-${device}-sign-in-code`);
      await page.getByLabel('Código de verificación').fill(await app.nextCode());
      await page.getByRole('button', { name: 'Verificar' }).click();
      await expect.poll(() => page.locator('.user-email').textContent(), WAIT).toBe(user.email);

      // Turn off: password and a current code.
      await goTo(page, 'Seguridad', 'Seguridad de la cuenta');
      await expect.poll(() => page.locator('.mfa-state').textContent(), WAIT).toContain('Activada');
      await page.getByLabel('Contraseña', { exact: true }).fill(CHOSEN_PASSWORD);
      await page.getByLabel('Código de 6 dígitos').fill(await app.nextCode());
      await page.getByRole('button', { name: 'Desactivar', exact: true }).click();
      await expect.poll(() => page.locator('.mfa-state').textContent(), WAIT).toContain('Desactivada');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `mfa-${device}-turned-off`);
      // The next sign-in asks for the password only.
      const signedIn = await harness.sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: user.email, password: CHOSEN_PASSWORD } });
      expect(signedIn.body.token).toEqual(expect.any(String));
      // The wrong password typed on purpose answered 400, which Chromium logs as a failed resource: no fault.
      expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    });
  }
  it('leads an admin without two-step verification to the Security page until it is on; sign-out ends the session in the API', async () => {
    const admin = await harness.invite('admin');
    const { page, errors } = await harness.open(DESKTOP);
    await signIn(page, admin);
    await expect.poll(() => page.url(), WAIT).toContain('#/security');
    await page.getByRole('heading', { name: 'Seguridad de la cuenta' }).waitFor(WAIT);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Los administradores deben usar la verificación en dos pasos' }).count(), WAIT).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'mfa-admin-required');
    // Elsewhere is not open yet: the page comes back to Security.
    await page.getByRole('navigation', { name: 'Secciones del panel' }).getByRole('link', { name: 'Pagos' }).click();
    await expect.poll(() => page.url(), WAIT).toContain('#/security');

    await page.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
    await page.getByLabel('Contraseña', { exact: true }).fill(CHOSEN_PASSWORD);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.locator('.mfa-key').waitFor(WAIT);
    const app = testAuthenticator(((await page.locator('.mfa-key').textContent()) ?? '').replaceAll(' ', ''), harness.sandbox.authenticatorClock);
    await page.getByLabel('Código de 6 dígitos').fill(await app.nextCode());
    await page.getByRole('button', { name: 'Activar', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Los administradores deben usar' }).count(), WAIT).toBe(0);
    await goTo(page, 'Pagos');
    expect(page.url()).toContain('#/payments');

    const token = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('svc.dashboard.session') ?? '{}') as { token?: string }).token);
    expect((await harness.sandbox.request('GET', '/v1/dashboard/me', { key: token })).status).toBe(200);
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByLabel('Correo electrónico').waitFor(WAIT);
    // The token the page held is refused by the API from now on, not only forgotten by the browser.
    expect((await harness.sandbox.request('GET', '/v1/dashboard/me', { key: token })).status).toBe(401);
    expect(errors).toEqual([]);
  });
});
