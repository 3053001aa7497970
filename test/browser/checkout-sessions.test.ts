import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, DESKTOP, fillCard, PHONE, RETURN_URL, screenshot, startCheckoutHarness, TEST_CARDS, type CheckoutHarness } from './support/checkout-browser.ts';

/** The page polls every 3 s: a closed session must show within a few seconds, without reloading. */
const NOTICED_WITHIN = { timeout: 8_000 };

describe('checkout page: sessions that close', () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  });
  afterAll(() => harness?.close());

  it('warns only when one attempt remains, then shows the session closed when the attempts run out', async () => {
    const session = await harness.createSession({ maxFailures: 1 });
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor();
    expect(await page.locator('#last-attempt').isHidden()).toBe(true);

    await fillCard(page, { number: TEST_CARDS.declined, holder: 'Pedro Salas', documentId: '12345678' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByText('Atención: te queda un solo intento').waitFor();
    await screenshot(page, 'phone-last-attempt');

    await page.getByLabel('Código de seguridad (CVV)').fill('123');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: 'Se agotaron los intentos de pago' }).waitFor();
    expect(await page.locator('#pay-form').isHidden()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-attempts-exhausted');
  });

  it('counts down on the sandbox clock, and an open page notices the expiry within seconds', async () => {
    const session = await harness.createSession({ expiresInMinutes: 10 });
    const { page } = await harness.open(session.checkoutUrl, DESKTOP);
    await expect.poll(() => page.locator('#countdown-value').textContent()).toMatch(/^(10:0[01]|9:5\d)$/); // Date has whole seconds

    harness.sandbox.advance(150);
    await expect.poll(() => page.locator('#countdown-value').textContent(), NOTICED_WITHIN).toMatch(/^7:[23]\d$/);

    harness.sandbox.advance(450);
    await page.getByRole('heading', { name: 'El tiempo para pagar terminó' }).waitFor(NOTICED_WITHIN);
    expect(await page.locator('#countdown').isHidden()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-expired');
  });

  it('a charge on a session the page has not yet seen closed gets the 410 and shows it closed', async () => {
    const session = await harness.createSession();
    const { page, requests } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor();
    // The polls stop reaching the server, so only the charge's own answer can tell the page.
    await page.route('**/v1/checkout/sessions/**', (route) => route.abort());
    const expired = await harness.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: harness.secretKey });
    expect(expired.body.closedReason).toBe('merchant_request');

    await fillCard(page, { number: TEST_CARDS.approved, holder: 'Rosa Linares', documentId: '12345678' });
    const answer = page.waitForResponse('**/v1/checkout/charge');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    expect((await answer).status()).toBe(410);
    await page.getByRole('heading', { name: 'El comercio canceló este pago' }).waitFor();
    expect(requests.filter((r) => r.url.endsWith('/v1/checkout/charge'))).toHaveLength(1);
  });

  it("waits for a charge whose answer never came, and shows the bank's result once the service settles it", async () => {
    const session = await harness.createSession();
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await fillCard(page, { number: TEST_CARDS.bankSilent, holder: 'Iván Castillo', documentId: '12345678' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    // The gateway gives up after its deadline (8 s): the charge stays pending and the page says so.
    await page.getByRole('heading', { name: 'Estamos confirmando tu pago con el banco' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'phone-waiting');

    // A pending charge is settled from the bank's record a minute later, when the page's poll reads the session.
    harness.sandbox.advance(61);
    await page.waitForURL(RETURN_URL, { timeout: 10_000 });
  });

  it('shows a paid session as paid when it is opened again', async () => {
    const session = await harness.createSession();
    const paid = await harness.sandbox.request('POST', '/v1/checkout/charge', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { sessionReference: session.reference, card: { number: TEST_CARDS.approved, expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Rosa Linares' }, document: { type: 'V', id: '12345678' } },
    });
    expect(paid.body.transaction.status).toBe('approved');
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('heading', { name: 'Este pago ya fue realizado' }).waitFor();
  });

  it('says so when the link names no session', async () => {
    const origin = new URL((await harness.createSession()).checkoutUrl).origin;
    const { page } = await harness.open(`${origin}/checkout?session=cs_doesNotExist123`, PHONE);
    await page.getByRole('heading', { name: 'No encontramos este pago' }).waitFor();
    await page.goto(`${origin}/checkout`);
    await page.getByRole('heading', { name: 'No encontramos este pago' }).waitFor();
  });
});
