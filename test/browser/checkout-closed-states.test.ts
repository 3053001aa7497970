import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  accessibilityViolations,
  BROWSER_TEST_TIMEOUT,
  backToShop,
  DESKTOP,
  fillCard,
  PHONE,
  RETURN_URL,
  screenshot,
  startCheckoutHarness,
  TEST_CARDS,
  WAIT,
  type CheckoutHarness,
} from './support/checkout-browser.ts';

/** Issue 35 item 6: a closed session leaves the buyer a way back to the shop, as the receipt does. */
describe('checkout page: the way back to the shop from a closed session', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  const returnLink = (page: Page) => page.getByRole('link', { name: 'Volver a la tienda' });

  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === PHONE ? 'phone' : 'desktop';

    it(`expired (${size}): "Volver a la tienda" takes the buyer to the session's returnUrl`, async () => {
      const session = await harness.createSession({ expiresInMinutes: 2 });
      harness.sandbox.advance(121);
      const { page } = await harness.open(session.checkoutUrl, viewport);
      await page.getByRole('heading', { name: 'El tiempo para pagar terminó' }).waitFor(WAIT);
      expect(await returnLink(page).getAttribute('href')).toBe(RETURN_URL);
      expect(await returnLink(page).isVisible()).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${size}-expired-return`);
      await backToShop(page);
    });

    it(`cancelled by the merchant (${size}): the same way back`, async () => {
      const session = await harness.createSession();
      const expired = await harness.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: harness.secretKey });
      expect(expired.body.closedReason).toBe('merchant_request');
      const { page } = await harness.open(session.checkoutUrl, viewport);
      await page.getByRole('heading', { name: 'El comercio canceló este pago' }).waitFor(WAIT);
      expect(await returnLink(page).getAttribute('href')).toBe(RETURN_URL);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${size}-cancelled-return`);
    });

    it(`attempts exhausted (${size}): the reason, then the way back`, async () => {
      const session = await harness.createSession({ maxFailures: 1 });
      const { page } = await harness.open(session.checkoutUrl, viewport);
      await fillCard(page, { number: TEST_CARDS.declined, holder: 'Pedro Salas', documentId: '12345678' });
      await page.getByRole('button', { name: /^Pagar/ }).click();
      // maxFailures 1: one decline is allowed, the second closes the session.
      await page.getByText('Atención: te queda un solo intento').waitFor(WAIT);
      await page.getByLabel('Código de seguridad (CVV)').fill('123');
      await page.getByRole('button', { name: /^Pagar/ }).click();
      await page.getByRole('heading', { name: 'Se agotaron los intentos de pago' }).waitFor(WAIT);
      expect(await page.locator('#closed-reason').isVisible()).toBe(true);
      expect(await returnLink(page).getAttribute('href')).toBe(RETURN_URL);
      expect(await returnLink(page).isVisible()).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${size}-attempts-exhausted-return`);
    });
  }

  it('offers no link where there is nowhere to go back to: no returnUrl, or no session', async () => {
    const session = await harness.createSession({ returnUrl: undefined });
    await harness.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: harness.secretKey });
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('heading', { name: 'El comercio canceló este pago' }).waitFor(WAIT);
    expect(await page.locator('#closed-actions').isHidden()).toBe(true);

    const unknown = await harness.open(`${new URL(session.checkoutUrl).origin}/checkout?session=cs_doesNotExist123`, PHONE);
    await unknown.page.getByRole('heading', { name: 'No encontramos este pago' }).waitFor(WAIT);
    expect(await unknown.page.locator('#closed-actions').isHidden()).toBe(true);
  });
});
