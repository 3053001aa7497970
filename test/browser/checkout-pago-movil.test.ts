import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { PAGO_MOVIL_REASONS } from '../../shared/connectors/mercantil/pago-movil-outcomes.ts';
import { PAGO_MOVIL_TEST_DATA } from '../../infra/sandbox/mercantil/pago-movil-desk.ts';
import { VENEZUELAN_BANKS } from '../../shared/domain/pago-movil.ts';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, DESKTOP, PHONE, RETURN_URL, screenshot, startCheckoutHarness, WAIT, type CheckoutHarness } from './support/checkout-browser.ts';

/** Issue 34 item 5: the buyer pays a VES session by pago móvil C2P on Banco Mercantil (its simulator). */
describe('checkout page: pago móvil C2P', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  /** A merchant on Mercantil for VES cards and C2P, in test mode, and a session of Bs. 1.250,50 opened at `viewport`. */
  const openC2pSession = async (viewport: typeof DESKTOP, body: Record<string, unknown> = {}) => {
    const { sandbox } = harness;
    const pagoMovil = { gateways: { pago_movil_c2p: 'mercantil' as const }, payee: { phone: '04241112233', rif: 'J-07013380-5' } };
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true }, pagoMovil } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 125_050, currency: 'VES', description: 'Pedido 77', returnUrl: RETURN_URL, ...body } });
    expect(created.status).toBe(201);
    const opened = await harness.open(created.body.checkoutUrl, viewport);
    await opened.page.locator('#pay').waitFor(WAIT);
    return { ...opened, reference: created.body.reference as string };
  };

  /**
   * The buyer's payer data as they pick and type it: the bank's sandbox cédula on a phone of this file's own (the
   * per-phone key bound, 5 a day, is shared by every file on this worker's table).
   */
  const fillPayer = async (page: Page, phone = '7654321') => {
    await page.getByLabel('Tu banco').selectOption({ label: 'Mercantil (0105)' });
    await page.getByLabel('Código', { exact: true }).selectOption('0414');
    await page.getByLabel('Número (7 dígitos)').fill(phone);
    await page.locator('#c2p-document-type').selectOption('V');
    await page.getByLabel('Número de documento').fill('9999999');
  };
  const keyStatus = (page: Page) => page.locator('#c2p-key-status');
  const c2pAlert = (page: Page) => page.locator('#c2p-form').getByRole('alert');
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`${name}: picks Pago Móvil, asks for the key, types it and pays; the receipt names Pago Móvil, the bank and the masked phone`, async () => {
      const { page, requests, console } = await openC2pSession(viewport);
      // Both methods: the picker, card first, as the page always opened.
      const picker = page.getByRole('radiogroup', { name: 'Forma de pago' });
      await picker.waitFor(WAIT);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pago con tarjeta');
      expect(await page.getByRole('radio', { name: 'Tarjeta' }).isChecked()).toBe(true);
      expect(await page.locator('#c2p-form').isHidden()).toBe(true);
      await page.getByRole('radio', { name: 'Pago Móvil' }).check();
      expect(await page.locator('#pay-form').isHidden()).toBe(true);
      expect(await page.locator('#secure-note').isHidden()).toBe(true);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pago Móvil');

      // Every bank of the network by name with its code; the operators' prefixes; a numeric, unremembered key field.
      const banks = await page.getByLabel('Tu banco').locator('option').allTextContents();
      expect(banks).toEqual(['Elige tu banco', ...Object.entries(VENEZUELAN_BANKS).map(([code, bank]) => `${bank} (${code})`)]);
      expect(await page.getByLabel('Código', { exact: true }).locator('option').allTextContents()).toEqual(['0412', '0414', '0416', '0424', '0426']);
      const key = page.getByLabel('Clave de pago');
      expect([await key.getAttribute('inputmode'), await key.getAttribute('maxlength'), await key.getAttribute('autocomplete')]).toEqual(['numeric', '8', 'off']);
      expect(await page.getByLabel('Número (7 dígitos)').getAttribute('inputmode')).toBe('numeric');

      // Asking without the data: the fields are named, nothing is sent.
      await page.getByRole('button', { name: 'Solicitar clave' }).click();
      await page.locator('#c2p-bank-error').filter({ hasText: 'Elige el banco de tu cuenta.' }).waitFor(WAIT);
      expect(requests.filter((r) => r.url.includes('/pago-movil/'))).toEqual([]);

      await fillPayer(page);
      await page.getByRole('button', { name: 'Solicitar clave' }).click();
      await keyStatus(page).filter({ hasText: 'Te enviamos la clave por SMS.' }).waitFor(WAIT);
      expect(await keyStatus(page).textContent()).toBe('Te enviamos la clave por SMS. Escríbela abajo para pagar. Puedes pedir 2 claves más.');
      const keyRequest = requests.find((r) => r.url.endsWith('/v1/checkout/pago-movil/key'))!;
      expect(JSON.parse(keyRequest.body!)).toMatchObject({ bankCode: '0105', phone: '04147654321', documentType: 'V', documentId: '9999999' });
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `pago-movil-key-sent-${name}`);

      await key.fill(PAGO_MOVIL_TEST_DATA.key);
      const pay = page.getByRole('button', { name: 'Pagar Bs. 1.250,50' });
      await pay.click();
      await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
      const receipt = async (id: string) => page.locator(`#receipt-${id}`).textContent();
      expect([await receipt('method'), await receipt('bank'), await receipt('phone')]).toEqual(['Pago Móvil', 'Mercantil (0105)', '*******4321']);
      expect(await page.locator('#receipt-card-row').isHidden()).toBe(true);
      expect(await page.locator('#receipt-bank-reference').textContent()).not.toBe('');
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `pago-movil-approved-${name}`);

      const charges = requests.filter((r) => r.url.endsWith('/v1/checkout/pago-movil/charge'));
      expect(charges).toHaveLength(1);
      expect(charges[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(charges[0]!.body!)).toMatchObject({ bankCode: '0105', phone: '04147654321', key: PAGO_MOVIL_TEST_DATA.key });
      expect(console.join('\n')).not.toMatch(/pageerror|Content Security Policy/);
    });
  }

  it('a wrong key is declined with the reason, the key emptied; the next attempt has its own Idempotency-Key and pays', async () => {
    const { page, requests } = await openC2pSession(PHONE, { paymentMethods: ['pago_movil_c2p'] });
    // Only C2P: its form at once, no picker, no card form.
    await page.locator('#c2p-form').waitFor(WAIT);
    expect(await page.locator('#method-picker').isHidden()).toBe(true);
    expect(await page.locator('#pay-form').isHidden()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pago Móvil');

    await fillPayer(page);
    await page.getByLabel('Clave de pago').fill('12345678');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await c2pAlert(page).filter({ hasText: PAGO_MOVIL_REASONS.declined }).waitFor(WAIT);
    expect(await page.getByLabel('Clave de pago').inputValue()).toBe('');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'pago-movil-declined-phone');

    await page.getByLabel('Clave de pago').fill(PAGO_MOVIL_TEST_DATA.key);
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    const keys = requests.filter((r) => r.url.endsWith('/v1/checkout/pago-movil/charge')).map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });

  it("says the bank's own refusal to send a key, and the limit once the session has asked for its three", async () => {
    const { page } = await openC2pSession(DESKTOP, { paymentMethods: ['pago_movil_c2p'] });
    await page.locator('#c2p-form').waitFor(WAIT);
    // The simulator's payer whose bank refuses the key (0300): the bank's Spanish reason.
    await fillPayer(page, '0000300');
    await page.getByRole('button', { name: 'Solicitar clave' }).click();
    await c2pAlert(page).filter({ hasText: PAGO_MOVIL_REASONS.keyRefused }).waitFor(WAIT);
    expect(await keyStatus(page).textContent()).toBe('');

    // That request counted: two more are sent, the fourth is over the session's bound.
    await page.getByLabel('Número (7 dígitos)').fill('5550123');
    const ask = page.getByRole('button', { name: 'Solicitar clave' });
    await ask.click();
    await keyStatus(page).filter({ hasText: 'Puedes pedir 1 clave más.' }).waitFor(WAIT);
    await ask.click();
    await keyStatus(page).filter({ hasText: 'Ya no puedes pedir más claves en este pago' }).waitFor(WAIT);
    await ask.click();
    await c2pAlert(page).filter({ hasText: 'Llegaste al límite de claves de pago (3 por pago y 5 por teléfono al día). Usa la última clave que recibiste.' }).waitFor(WAIT);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'pago-movil-key-limit-desktop');
  });

  it('a card-only session shows no picker: the card form, as before', async () => {
    const created = await harness.createSession();
    const { page } = await harness.open(created.checkoutUrl, PHONE);
    await page.locator('#pay-form').waitFor(WAIT);
    expect(await page.locator('#method-picker').isHidden()).toBe(true);
    expect(await page.getByRole('radiogroup').count()).toBe(0);
    expect(await page.locator('#c2p-form').isHidden()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pago con tarjeta');
    expect(await page.locator('#secure-note').isHidden()).toBe(false);
  });
});
