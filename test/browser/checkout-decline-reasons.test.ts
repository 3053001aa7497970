import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERIC_DECLINE_REASON } from '../../shared/domain/decline-codes.ts';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, DESKTOP, fillCard, PHONE, screenshot, startCheckoutHarness, TEST_CARDS, WAIT, type CheckoutHarness } from './support/checkout-browser.ts';

/**
 * Issue 33, finding 8 on the page: the buyer is told what they can fix (wrong CVV, no funds, a past expiry), by
 * Stripe's rule, and a lost or stolen card reads the same generic sentence as any other decline.
 */
describe('checkout page: decline reasons the buyer can act on', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  const REASONS: [string, string, string][] = [
    ['insufficient-funds', TEST_CARDS.insufficientFunds, 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.'],
    ['wrong-cvv', TEST_CARDS.wrongCvv, 'El código de seguridad (CVV) no es correcto. Revísalo e inténtalo de nuevo.'],
    ['lost', TEST_CARDS.lost, GENERIC_DECLINE_REASON],
    ['stolen', TEST_CARDS.stolen, GENERIC_DECLINE_REASON],
  ];

  for (const [name, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    it(`on ${name === 'phone' ? 'a 390 px phone' : 'a desktop'}: each test card shows its own reason, a lost or stolen one the generic decline`, async () => {
      const session = await harness.createSession({ maxFailures: 10 });
      const { page } = await harness.open(session.checkoutUrl, viewport);
      const pay = page.getByRole('button', { name: /^Pagar/ });
      await pay.waitFor(WAIT);
      await fillCard(page, { number: TEST_CARDS.declined, holder: 'Luisa Márquez', documentId: '12345678' });
      for (const [card, number, reason] of REASONS) {
        await page.getByLabel('Número de la tarjeta').fill(number);
        await page.getByLabel('Código de seguridad (CVV)').fill('123');
        await pay.click();
        await page.getByRole('alert').filter({ hasText: reason }).waitFor(WAIT);
        expect(await page.locator('#pay-alert').textContent(), card).toContain(reason);
        await expect.poll(() => pay.isEnabled(), WAIT).toBe(true);
        await screenshot(page, `${name}-declined-${card}`);
      }
      expect(await accessibilityViolations(page)).toEqual([]);
      // Every card reached the bank, and the merchant reads the bank's own code of the last one.
      const read = await harness.sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: harness.secretKey });
      expect(read.body).toMatchObject({ attemptCount: REASONS.length, lastTransaction: { errorCode: '0043' } });

      // A past expiry never reaches the bank: the page names the field (the bank's 0120 is told alike, by the API).
      await page.getByLabel('Número de la tarjeta').fill(TEST_CARDS.approved);
      await page.getByLabel('Año (AAAA)').fill('2020');
      await page.getByLabel('Código de seguridad (CVV)').fill('123');
      await pay.click();
      await page.getByText('La tarjeta está vencida. Revisa la fecha o usa otra tarjeta.').waitFor(WAIT);
      await screenshot(page, `${name}-declined-expired`);
    });
  }
});
