import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  BROWSER_TEST_TIMEOUT,
  BUSINESS_NAME,
  BUYER_TIME_ZONE,
  DESKTOP,
  fillCard,
  merchantShown,
  PHONE,
  RETURN_URL,
  screenshot,
  startCheckoutHarness,
  TEST_CARDS,
  WAIT,
  type CheckoutHarness,
} from './support/checkout-browser.ts';

describe('checkout page: whom the buyer pays, and the receipt', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  it('shows a receipt with the business name, amount in Bs., card, local date and time with its zone, and the references', async () => {
    const session = await harness.createSession();
    const opened = await harness.open(session.checkoutUrl, DESKTOP);
    const { page, requests, console } = opened;
    await fillCard(page, { number: TEST_CARDS.approved, holder: 'Marta Lugo', documentId: '12345678' });
    const charge = page.waitForResponse('**/v1/checkout/charge', WAIT);
    await page.getByRole('button', { name: /^Pagar/ }).click();
    const { transaction } = await (await charge).json();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);

    const text = (id: string) => page.locator(`#${id}`).textContent();
    expect(await text('receipt-merchant')).toBe(BUSINESS_NAME);
    expect(await text('receipt-description')).toBe('Pedido 42: dos cafés y un pan de jamón');
    expect(await text('receipt-amount')).toMatch(/^Bs\.\s1\.250,50$/);
    expect(await text('receipt-card')).toBe('Visa terminada en 1111');
    expect(await text('receipt-reference')).toBe(transaction.reference);
    expect(await text('receipt-bank-reference')).toBe(transaction.processorReference);
    expect(await page.locator('#receipt-test').isVisible()).toBe(true);
    // The buyer's own time zone (Caracas, UTC-4), named, so a printed receipt is unambiguous.
    const expected = new Intl.DateTimeFormat('es-VE', { day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone: BUYER_TIME_ZONE }).format(new Date(transaction.createdAt));
    expect(await text('receipt-date')).toBe(expected);
    expect(expected).toMatch(/\d{4}.*\d{1,2}:\d{2}.*(GMT-4|VET|HOVE)/);
    expect(await page.locator('#receipt-date').getAttribute('datetime')).toBe(transaction.createdAt);

    // The logo came from the checkout's own origin, cacheable, and broke no rule of the CSP (img-src 'self').
    const logo = requests.find((r) => r.url.endsWith(harness.logoUrl));
    expect(logo && new URL(logo.url).origin).toBe(new URL(session.checkoutUrl).origin);
    const served = await page.request.get(new URL(harness.logoUrl, session.checkoutUrl).href);
    expect(served.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(console.join('\n')).not.toMatch(/Content Security Policy|pageerror/);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('prints the receipt alone: "Imprimir comprobante" calls window.print and stops the trip back to the shop', async () => {
    const session = await harness.createSession();
    // The page's clock stands still until the test moves it: the 10 s countdown to the shop runs only when told.
    const { page } = await harness.open(session.checkoutUrl, PHONE, { pausedClock: true });
    await fillCard(page, { number: TEST_CARDS.approved, holder: 'Marta Lugo', documentId: '12345678' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void (window as unknown as { printed: number }).printed++;
    });
    await page.clock.runFor(3_000);
    expect(await page.locator('#redirect-text').textContent()).toBe('Te llevaremos de vuelta a la tienda en 7 segundos.');

    await page.getByRole('button', { name: 'Imprimir comprobante' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    expect(await page.locator('#redirect-text').textContent()).toBe('Te quedas en esta página. Vuelve a la tienda cuando quieras.');
    await page.clock.runFor(60_000);
    expect(page.url()).toBe(session.checkoutUrl);

    await page.emulateMedia({ media: 'print' });
    const visible = async (selector: string) => page.locator(selector).first().isVisible();
    expect(await visible('#approved')).toBe(true);
    expect(await visible('.receipt-details')).toBe(true);
    for (const hidden of ['.summary', '.actions', '#redirect-note', '#secure-note', '#test-banner']) expect(await visible(hidden), hidden).toBe(false);
    await screenshot(page, 'phone-receipt-print');
    await page.emulateMedia({ media: 'screen' });
    await screenshot(page, 'phone-receipt');
  });

  it('the countdown to the shop can be stopped, and without that it leaves when it reaches zero', async () => {
    const stays = await harness.open((await harness.createSession()).checkoutUrl, PHONE, { pausedClock: true });
    await fillCard(stays.page, { number: TEST_CARDS.approved, holder: 'Marta Lugo', documentId: '12345678' });
    await stays.page.getByRole('button', { name: /^Pagar/ }).click();
    await stays.page.getByRole('button', { name: 'Quedarme en esta página' }).click();
    await stays.page.clock.runFor(60_000);
    expect(stays.page.url()).not.toBe(RETURN_URL);
    expect(await stays.page.getByRole('link', { name: 'Volver a la tienda' }).isVisible()).toBe(true);

    const leaves = await harness.open((await harness.createSession()).checkoutUrl, PHONE, { pausedClock: true });
    await fillCard(leaves.page, { number: TEST_CARDS.approved, holder: 'Marta Lugo', documentId: '12345678' });
    await leaves.page.getByRole('button', { name: /^Pagar/ }).click();
    await leaves.page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    await leaves.page.clock.runFor(9_000);
    expect(leaves.page.url()).not.toBe(RETURN_URL);
    await leaves.page.clock.runFor(1_000);
    await leaves.page.waitForURL(RETURN_URL, WAIT);
  });

  it('names the merchant while the charge is processing', async () => {
    const session = await harness.createSession();
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await fillCard(page, { number: TEST_CARDS.approved, holder: 'Marta Lugo', documentId: '12345678' });
    // The charge is held until the test lets it go: the page shows its processing state meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/checkout/charge', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await expect.poll(() => page.locator('#pay-label').textContent(), WAIT).toBe('Procesando el pago…');
    expect(await page.locator('#pay-button').isDisabled()).toBe(true);
    await expect.poll(() => merchantShown(page), WAIT).toEqual({ name: BUSINESS_NAME, logo: 'loaded' });
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-processing');
    release();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
  });

  it("shows the merchant's account name when no business name is set, and no logo (nor a broken image) without one", async () => {
    const plain = await harness.otherMerchant();
    const session = await plain.createSession();
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    await expect.poll(() => merchantShown(page), WAIT).toEqual({ name: 'Test merchant', logo: 'hidden' });
    expect(await page.title()).toBe('Pago a Test merchant');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-form-no-logo');
  });

  it('a long business name wraps on a phone instead of pushing the page sideways', async () => {
    const long = await harness.otherMerchant({ businessName: 'Inversiones y Distribuidora Panadería y Pastelería La Gran Caracas del Este' });
    const { page } = await harness.open((await long.createSession()).checkoutUrl, PHONE);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'phone-form-long-name');
  });
});
