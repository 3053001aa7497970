import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  backToShop,
  BROWSER_TEST_TIMEOUT,
  BUSINESS_NAME,
  DESKTOP,
  fillCard,
  merchantShown,
  OTP_CODE,
  PHONE,
  RETURN_URL,
  screenshot,
  startCheckoutHarness,
  TEST_CARDS,
  WAIT,
  WAIT_MS,
  type CheckoutHarness,
} from './support/checkout-browser.ts';

const BRANDED = { name: BUSINESS_NAME, logo: 'loaded' };

describe('checkout page: paying', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  it('pays with an approved card on a desktop, in Spanish, and lands on returnUrl; card data goes only to the charge API', async () => {
    const session = await harness.createSession({ prefill: { cardholderName: 'María Pérez', documentType: 'V', documentId: '12.345.678' } });
    const { page, requests, console } = await harness.open(session.checkoutUrl, DESKTOP);

    // The page's first read: on a busy machine the first load alone can take seconds.
    await expect.poll(() => page.locator('#amount').textContent(), WAIT).toMatch(/1\.250,50/);
    // Today's bolívar symbol, whatever the browser's locale data says (it still has Bs.S, 2018-2021).
    expect(await page.locator('#amount').textContent()).toMatch(/^Bs\.\s1\.250,50$/);
    expect(await page.getByRole('button', { name: /^Pagar/ }).textContent()).toMatch(/^Pagar Bs\.\s1\.250,50$/);
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    expect(await page.title()).toBe(`Pago a ${BUSINESS_NAME}`);
    expect(await page.locator('#secure-note').isVisible()).toBe(true);
    expect(await page.locator('#description').textContent()).toBe('Pedido 42: dos cafés y un pan de jamón');
    expect(await page.locator('#countdown-value').textContent()).toMatch(/^[45]:\d\d$/);
    // The prefill is a suggestion the buyer can change: it is what the fields hold, and what is sent is what they hold after.
    expect(await page.getByLabel('Nombre del titular (como aparece en la tarjeta)').inputValue()).toBe('María Pérez');
    expect(await page.getByLabel('Número', { exact: true }).inputValue()).toBe('12345678');
    expect(await page.getByLabel('Tipo', { exact: true }).inputValue()).toBe('V');
    expect(await page.locator('#last-attempt').isHidden()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-form');

    await fillCard(page, { number: TEST_CARDS.approved, holder: 'Maria A. Perez' });
    expect(await page.getByLabel('Número de la tarjeta').inputValue()).toBe('4111 1111 1111 1111');
    expect(await page.locator('#card-brand').textContent()).toBe('Visa');
    await page.getByRole('button', { name: /^Pagar/ }).click();

    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    expect(await page.locator('#secure-note').isHidden()).toBe(true);
    expect(await page.locator('#receipt-card').textContent()).toBe('Visa terminada en 1111');
    expect(await page.locator('#redirect-text').textContent()).toMatch(/^Te llevaremos de vuelta a la tienda en \d+ segundos?\.$/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-approved');
    // Without a click, the page goes back to the shop on its own once the buyer has had time to see the receipt.
    await page.waitForURL(RETURN_URL, { timeout: WAIT_MS + 10_000 });

    const read = await harness.sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: harness.secretKey });
    expect(read.body.status).toBe('completed');
    const transactions = await harness.sandbox.request('GET', `/v1/transactions?sessionReference=${session.reference}`, { key: harness.secretKey });
    const detail = await harness.sandbox.request('GET', `/v1/transactions/${transactions.body.data[0].reference}`, { key: harness.secretKey });
    expect(detail.body.cardholderName).toBe('Maria A. Perez');

    const withCard = requests.filter((r) => `${r.url} ${r.body ?? ''}`.includes(TEST_CARDS.approved));
    expect(withCard.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /v1/checkout/charge']);
    expect(new URL(withCard[0]!.url).origin).toBe(new URL(session.checkoutUrl).origin);
    expect(console.join('\n')).not.toMatch(/4111|Content Security Policy|pageerror/);
  });

  it('nothing card-related is kept in the browser: storage, cookies and URL stay empty', async () => {
    const session = await harness.createSession();
    const { page } = await harness.open(session.checkoutUrl, DESKTOP);
    await fillCard(page, { number: TEST_CARDS.declined, holder: 'Ana Gómez', documentId: '12345678' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('alert').filter({ hasText: 'Tu banco rechazó el pago' }).waitFor(WAIT);
    const kept = await page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie, url: location.href }));
    expect(kept).toEqual({ local: 0, session: 0, cookie: '', url: session.checkoutUrl });
    expect(await page.context().cookies()).toEqual([]);
  });

  it('on a phone: a decline shows the generic reason, clears the CVV, and the next card pays with a new Idempotency-Key', async () => {
    const session = await harness.createSession();
    const { page, requests } = await harness.open(session.checkoutUrl, PHONE);
    await fillCard(page, { number: TEST_CARDS.declined, holder: 'José Rodríguez', documentId: '12345678' });
    await screenshot(page, 'phone-form');
    // A double click sends at most one charge: the button is disabled while it is in flight.
    await page.getByRole('button', { name: /^Pagar/ }).dblclick();

    // Do not honor: the generic sentence (issue 21 finding 6; issue 33 finding 8 tells what the buyer can fix).
    const alert = page.getByRole('alert').filter({ hasText: 'Tu banco rechazó el pago. Prueba con otra tarjeta o comunícate con tu banco.' });
    await alert.waitFor(WAIT);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), WAIT).toBe('pay-alert');
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    expect(await page.locator('#secure-note').isVisible()).toBe(true);
    expect(await page.getByLabel('Código de seguridad (CVV)').inputValue()).toBe('');
    await screenshot(page, 'phone-declined');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('Número de la tarjeta').fill(TEST_CARDS.approved);
    await page.getByLabel('Código de seguridad (CVV)').fill('123');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    await screenshot(page, 'phone-approved-receipt');
    await backToShop(page);

    const charges = requests.filter((r) => r.url.endsWith('/v1/checkout/charge'));
    expect(charges).toHaveLength(2);
    expect(new Set(charges.map((c) => c.idempotencyKey)).size).toBe(2);
    const list = await harness.sandbox.request('GET', `/v1/transactions?sessionReference=${session.reference}`, { key: harness.secretKey });
    expect(list.body.data.map((t: { status: string }) => t.status).sort()).toEqual(['approved', 'declined']);
  });

  it('can be paid with the keyboard alone; a mistake moves the focus to the field in error', async () => {
    const session = await harness.createSession({ prefill: { cardholderName: 'Teresa Rojas', documentType: 'V', documentId: '12345678' } });
    const { page, requests } = await harness.open(session.checkoutUrl, DESKTOP);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    const focused = () => page.evaluate(() => document.activeElement?.id);

    await page.keyboard.press('Tab');
    expect(await focused()).toBe('card-number');
    await page.keyboard.type('4111 1111 1111 1112');
    await page.keyboard.press('Enter');
    await page.getByText('El número de la tarjeta no es válido. Revísalo.').waitFor(WAIT);
    expect(await focused()).toBe('card-number');
    expect(await page.getByLabel('Número de la tarjeta').getAttribute('aria-invalid')).toBe('true');
    expect(requests.filter((r) => r.url.endsWith('/v1/checkout/charge'))).toHaveLength(0);

    await page.keyboard.press('Backspace');
    await page.keyboard.type('1');
    for (const value of ['12', '2030', '123']) {
      await page.keyboard.press('Tab');
      await page.keyboard.type(value);
    }
    await page.keyboard.press('Enter');
    // The receipt takes the focus; its buttons come next: print, then back to the shop.
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    await expect.poll(focused, WAIT).toBe('approved-title');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('print-receipt');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('approved-return');
    await page.keyboard.press('Enter');
    await page.waitForURL(RETURN_URL, WAIT);
  });

  it('after a dropped connection, sends the same attempt again with the same Idempotency-Key', async () => {
    const session = await harness.createSession();
    const { page, requests } = await harness.open(session.checkoutUrl, PHONE);
    await fillCard(page, { number: TEST_CARDS.approved, holder: 'Elena Torres', documentId: '12345678' });
    await page.route('**/v1/checkout/charge', (route) => route.abort('connectionreset'), { times: 1 });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('alert').filter({ hasText: 'No pudimos comunicarnos con el servidor' }).waitFor(WAIT);
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    await screenshot(page, 'phone-connection-error');

    await page.getByRole('button', { name: /^Pagar/ }).click();
    await backToShop(page);
    const keys = requests.filter((r) => r.url.endsWith('/v1/checkout/charge')).map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('asks for the OTP, counts a wrong code down, and pays with the right one', async () => {
    const session = await harness.createSession();
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await fillCard(page, { number: TEST_CARDS.otp, holder: 'Luisa Méndez', documentId: '9876543' });
    await page.getByRole('button', { name: /^Pagar/ }).click();

    const code = page.getByLabel('Código de verificación');
    await code.waitFor(WAIT);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), WAIT).toBe('otp-code');
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    // The OTP form asks for no card data: the note about it is not shown there.
    expect(await page.locator('#secure-note').isHidden()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-otp');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('alert').filter({ hasText: 'Te quedan 2 intentos' }).waitFor(WAIT);

    await code.fill(OTP_CODE);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    expect(await page.locator('#receipt-card').textContent()).toBe('Visa terminada en 3220');
    await backToShop(page);
  });

  it('pays a stored card with the CVV only: brand and last four shown', async () => {
    // A first approved payment with a customerRef stores the card (spec: Stored card).
    const customerRef = `cliente-${Date.now()}`;
    const first = await harness.createSession({ customerRef });
    const paid = await harness.sandbox.request('POST', '/v1/checkout/charge', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { sessionReference: first.reference, card: { number: TEST_CARDS.approved, expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Carla Díaz' }, document: { type: 'V', id: '12345678' } },
    });
    expect(paid.body.transaction.status).toBe('approved');
    const cards = await harness.sandbox.request('GET', `/v1/cards?customerRef=${customerRef}`, { key: harness.secretKey });
    const session = await harness.createSession({ cardToken: cards.body[0].svcToken });

    const { page, requests } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByText('Visa terminada en 1111').waitFor(WAIT);
    expect(await page.getByLabel('Número de la tarjeta').isHidden()).toBe(true);
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    expect(await page.locator('#secure-note').isVisible()).toBe(true);
    await screenshot(page, 'phone-stored-card');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Código de seguridad (CVV)').fill('123');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await backToShop(page);
    const charge = requests.find((r) => r.url.endsWith('/v1/checkout/charge'));
    expect(JSON.parse(charge!.body!)).toEqual({ sessionReference: session.reference, card: { cvv: '123' } });
  });
});
