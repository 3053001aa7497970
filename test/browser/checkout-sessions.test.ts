import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_MS } from '../../checkout/src/session-poller.ts';
import {
  accessibilityViolations,
  BROWSER_TEST_TIMEOUT,
  BUSINESS_NAME,
  DESKTOP,
  fillCard,
  focusWindow,
  merchantShown,
  PHONE,
  RETURN_URL,
  screenshot,
  sessionReads,
  settleRequests,
  setVisibility,
  startCheckoutHarness,
  TEST_CARDS,
  WAIT,
  WAIT_MS,
  type CheckoutHarness,
} from './support/checkout-browser.ts';

const BRANDED = { name: BUSINESS_NAME, logo: 'loaded' };

describe('checkout page: sessions that close', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  it('warns only when one attempt remains, then shows the session closed when the attempts run out', async () => {
    const session = await harness.createSession({ maxFailures: 1 });
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    expect(await page.locator('#last-attempt').isHidden()).toBe(true);

    await fillCard(page, { number: TEST_CARDS.declined, holder: 'Pedro Salas', documentId: '12345678' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByText('Atención: te queda un solo intento').waitFor(WAIT);
    await screenshot(page, 'phone-last-attempt');

    await page.getByLabel('Código de seguridad (CVV)').fill('123');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: 'Se agotaron los intentos de pago' }).waitFor(WAIT);
    expect(await page.locator('#pay-form').isHidden()).toBe(true);
    // The last attempt's reason stays in view, and the note about card data goes with the form.
    // The checkout's generic decline, for a do-not-honor card (issue 33 finding 8).
    expect(await page.locator('#closed-reason').textContent()).toBe('Motivo del último intento: Tu banco rechazó el pago. Prueba con otra tarjeta o comunícate con tu banco.');
    expect(await page.locator('#secure-note').isHidden()).toBe(true);
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-attempts-exhausted');

    // Opened again later, the page still says why.
    const again = await harness.open(session.checkoutUrl, PHONE);
    await again.page.getByRole('heading', { name: 'Se agotaron los intentos de pago' }).waitFor(WAIT);
    expect(await again.page.locator('#closed-reason-text').textContent()).toBe('Tu banco rechazó el pago. Prueba con otra tarjeta o comunícate con tu banco.');
  });

  it('counts down on the sandbox clock, and reads the session at once when the buyer comes back to the tab or the window', async () => {
    const createdAt = Date.now();
    const session = await harness.createSession({ expiresInMinutes: 10 });
    const { page } = await harness.open(session.checkoutUrl, DESKTOP);
    const secondsLeft = async () => {
      const [minutes, seconds] = ((await page.locator('#countdown-value').textContent()) ?? '').split(':').map(Number);
      return minutes === undefined || seconds === undefined || Number.isNaN(minutes + seconds) ? Number.NaN : minutes * 60 + seconds;
    };
    // What the countdown may show after the sandbox clock moved `advanced` seconds: the session's 600 s less that,
    // less the real time this test has taken so far (a busy machine makes it longer), plus the Date header's rounding.
    const expectLeft = async (advanced: number) => {
      const upper = 600 - advanced + 1;
      await expect.poll(secondsLeft, WAIT).toBeLessThanOrEqual(upper);
      const elapsed = Math.ceil((Date.now() - createdAt) / 1000);
      expect(await secondsLeft()).toBeGreaterThanOrEqual(upper - elapsed - 2);
    };
    await expect.poll(secondsLeft, WAIT).toBeGreaterThan(0);
    await expectLeft(0);

    harness.sandbox.advance(150);
    await setVisibility(page, 'hidden');
    await setVisibility(page, 'visible');
    await expectLeft(150);

    harness.sandbox.advance(150);
    await focusWindow(page);
    await expectLeft(300);
  });

  it('a read asked for while another is on its way is made after it, not dropped (the buyer comes back during a poll)', async () => {
    const session = await harness.createSession({ expiresInMinutes: 10 });
    const { page } = await harness.open(session.checkoutUrl, DESKTOP);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    // The next read reaches the server now, but its answer is held back until the test lets it go.
    let answered!: () => void;
    const serverAnswered = new Promise<void>((resolve) => (answered = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    await page.route('**/v1/checkout/sessions/**', async (route) => {
      if (!first) return route.continue();
      first = false;
      const response = await route.fetch();
      answered();
      await held;
      await route.fulfill({ response });
    });
    await focusWindow(page);
    await serverAnswered;

    // The session changes after that answer was made (the clock moves five minutes), and the buyer comes back again.
    harness.sandbox.advance(300);
    await focusWindow(page);
    release();
    const minutesLeft = async () => Number(((await page.locator('#countdown-value').textContent()) ?? '').split(':')[0]);
    await expect.poll(minutesLeft, WAIT).toBeLessThanOrEqual(5);
  });

  it('shows the session expired at expiresAt on its own, without reading it again', async () => {
    const session = await harness.createSession({ expiresInMinutes: 2 });
    // The page's clock moves only when the test says, so what it shows cannot run on while a busy machine is slow;
    // the server's clock runs in real time, so the last read leaves the session 27 s, not a few: a read slow under
    // load still comes back before expiresAt. The page takes the server's time from the Date header (whole seconds,
    // plus half of one), so it may count up to half a second more: it shows at most 0:28, under the page's 30 s poll,
    // and the page reads nothing more.
    const opened = await harness.open(session.checkoutUrl, DESKTOP, { pausedClock: true });
    const { page } = opened;
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    harness.sandbox.advance(93);
    await focusWindow(page);
    const secondsLeft = async () => {
      const [minutes, seconds] = ((await page.locator('#countdown-value').textContent()) ?? '').split(':').map(Number);
      return (minutes ?? Number.NaN) * 60 + (seconds ?? Number.NaN);
    };
    await expect.poll(secondsLeft, WAIT).toBeLessThanOrEqual(28);
    const left = await secondsLeft();
    expect(left).toBeGreaterThan(0);
    await settleRequests(opened);
    const readsBeforeExpiry = sessionReads(opened);

    await page.clock.runFor((left + 1) * 1000);
    await page.getByRole('heading', { name: 'El tiempo para pagar terminó' }).waitFor(WAIT);
    expect(await page.locator('#countdown').isHidden()).toBe(true);
    expect(await page.locator('#pay-form').isHidden()).toBe(true);
    expect(await page.locator('#secure-note').isHidden()).toBe(true);
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    await settleRequests(opened);
    expect(sessionReads(opened)).toBe(readsBeforeExpiry);
    // axe-core waits on timers of its own: the page's clock runs again for it (the session is closed, no read follows).
    await page.clock.resume();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-expired');
  });

  it(`reads the session every ${POLL_MS / 1000} s only while the page is visible, and never again once it shows closed`, async () => {
    const session = await harness.createSession({ expiresInMinutes: 60 });
    const opened = await harness.open(session.checkoutUrl, PHONE, { pausedClock: true });
    const { page } = opened;
    const reads = () => sessionReads(opened);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    expect(reads()).toBe(1);

    await page.clock.runFor(POLL_MS - 1_000);
    await settleRequests(opened);
    expect(reads()).toBe(1);
    await page.clock.runFor(1_000);
    await expect.poll(reads, WAIT).toBe(2);

    // Another tab in front: no read however long it stays there; back in front: one read at once.
    await setVisibility(page, 'hidden');
    await page.clock.runFor(10 * POLL_MS);
    await settleRequests(opened);
    expect(reads()).toBe(2);
    await setVisibility(page, 'visible');
    await expect.poll(reads, WAIT).toBe(3);

    // The merchant closes the session: the next poll shows it, and the reads stop.
    const expired = await harness.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: harness.secretKey });
    expect(expired.status).toBe(200);
    await page.clock.runFor(POLL_MS);
    await page.getByRole('heading', { name: 'El comercio canceló este pago' }).waitFor(WAIT);
    await settleRequests(opened);
    expect(reads()).toBe(4);
    await page.clock.runFor(10 * POLL_MS);
    await setVisibility(page, 'hidden');
    await setVisibility(page, 'visible');
    await focusWindow(page);
    await settleRequests(opened);
    expect(reads()).toBe(4);
  });

  it('a charge on a session the page has not yet seen closed gets the 410 and shows it closed', async () => {
    const session = await harness.createSession();
    const { page, requests } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    // The polls stop reaching the server, so only the charge's own answer can tell the page.
    await page.route('**/v1/checkout/sessions/**', (route) => route.abort());
    const expired = await harness.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: harness.secretKey });
    expect(expired.body.closedReason).toBe('merchant_request');

    await fillCard(page, { number: TEST_CARDS.approved, holder: 'Rosa Linares', documentId: '12345678' });
    const answer = page.waitForResponse('**/v1/checkout/charge', WAIT);
    await page.getByRole('button', { name: /^Pagar/ }).click();
    expect((await answer).status()).toBe(410);
    await page.getByRole('heading', { name: 'El comercio canceló este pago' }).waitFor(WAIT);
    expect(requests.filter((r) => r.url.endsWith('/v1/checkout/charge'))).toHaveLength(1);
  });

  it("waits for a charge whose answer never came, and shows the bank's result once the service settles it", async () => {
    const session = await harness.createSession();
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await fillCard(page, { number: TEST_CARDS.bankSilent, holder: 'Iván Castillo', documentId: '12345678' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    // The gateway gives up after its deadline (8 s): the charge stays pending and the page says so.
    await page.getByRole('heading', { name: 'Estamos confirmando tu pago con el banco' }).waitFor({ timeout: WAIT_MS + 8_000 });
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    expect(await page.locator('#secure-note').isHidden()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-waiting');

    // A pending charge is settled from the bank's record a minute later, when the page's poll reads the session
    // (every few seconds while the page waits for the bank): the buyer's own payment, with its receipt.
    harness.sandbox.advance(61);
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    expect(await page.locator('#receipt-card').textContent()).toBe('Visa terminada en 9995');
    await page.waitForURL(RETURN_URL, { timeout: WAIT_MS + 10_000 });
  });

  it('shows a paid session as paid when it is opened again', async () => {
    const session = await harness.createSession();
    const paid = await harness.sandbox.request('POST', '/v1/checkout/charge', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { sessionReference: session.reference, card: { number: TEST_CARDS.approved, expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Rosa Linares' }, document: { type: 'V', id: '12345678' } },
    });
    expect(paid.body.transaction.status).toBe('approved');
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('heading', { name: 'Este pago ya fue realizado' }).waitFor(WAIT);
    // Its receipt, and no trip back to the shop on its own: the buyer came to look.
    expect(await page.locator('#receipt-reference').textContent()).toBe(paid.body.transaction.reference);
    expect(await page.locator('#redirect-note').isHidden()).toBe(true);
    expect(await page.getByRole('link', { name: 'Volver a la tienda' }).getAttribute('href')).toBe(RETURN_URL);
    await expect.poll(() => merchantShown(page), WAIT).toEqual(BRANDED);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-paid-before');
  });

  it('says so when the link names no session', async () => {
    const origin = new URL((await harness.createSession()).checkoutUrl).origin;
    const { page } = await harness.open(`${origin}/checkout?session=cs_doesNotExist123`, PHONE);
    await page.getByRole('heading', { name: 'No encontramos este pago' }).waitFor(WAIT);
    // No session, no merchant to name: the header stays empty rather than guess.
    expect(await page.locator('#merchant').isHidden()).toBe(true);
    expect(await page.locator('#secure-note').isHidden()).toBe(true);
    await page.goto(`${origin}/checkout`, WAIT);
    await page.getByRole('heading', { name: 'No encontramos este pago' }).waitFor(WAIT);
  });
});
