import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SESSION_FAILURES } from '../../shared/domain/charge-transitions.ts';
import { BROWSER_TEST_TIMEOUT, fillCard, PHONE, screenshot, startCheckoutHarness, TEST_CARDS, WAIT, type CheckoutHarness } from './support/checkout-browser.ts';

/**
 * Issue 21 finding 6 on the page: a session without maxFailures closes at its DEFAULT_SESSION_FAILURES-th failure,
 * so the buyer is warned when one attempt remains (the spec's only warning) though attemptsRemaining is null, and
 * a do-not-honor decline reads the generic reason.
 */
describe('checkout page: the default bound of attempts', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  it('warns before the last attempt of a session without maxFailures, then shows it closed', async () => {
    const session = await harness.createSession();
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    const pay = page.getByRole('button', { name: /^Pagar/ });
    await pay.waitFor(WAIT);
    await fillCard(page, { number: TEST_CARDS.declined, holder: 'Pedro Salas', documentId: '12345678' });
    for (let failure = 1; failure < DEFAULT_SESSION_FAILURES; failure++) {
      if (failure > 1) await page.getByLabel('Código de seguridad (CVV)').fill('123');
      await pay.click();
      await page.getByRole('alert').filter({ hasText: 'Tu banco rechazó el pago' }).waitFor(WAIT);
      await expect.poll(() => pay.isEnabled(), WAIT).toBe(true);
      if (failure < DEFAULT_SESSION_FAILURES - 1) expect(await page.locator('#last-attempt').isHidden()).toBe(true);
    }
    await page.getByText('Atención: te queda un solo intento').waitFor(WAIT);
    await screenshot(page, 'phone-default-last-attempt');

    await page.getByLabel('Código de seguridad (CVV)').fill('123');
    await pay.click();
    await page.getByRole('heading', { name: 'Se agotaron los intentos de pago' }).waitFor(WAIT);
    expect(await page.locator('#closed-reason').textContent()).toBe('Motivo del último intento: Tu banco rechazó el pago. Prueba con otra tarjeta o comunícate con tu banco.');
  });
});
