import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_MS } from '../../checkout/src/session-poller.ts';
import {
  accessibilityViolations,
  DESKTOP,
  fillCard,
  focusWindow,
  PHONE,
  RETURN_URL,
  screenshot,
  sessionReads,
  setVisibility,
  startCheckoutHarness,
  TEST_CARDS,
  type CheckoutHarness,
} from './support/checkout-browser.ts';

/** What the page shows after a read it made at once (the buyer came back): within a few seconds. */
const NOTICED_WITHIN = { timeout: 8_000 };
/** Long enough for a request the page would have sent to reach the test's recorder. */
const NO_REQUEST_WITHIN_MS = 1_000;

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

  it('counts down on the sandbox clock, and reads the session at once when the buyer comes back to the tab or the window', async () => {
    const session = await harness.createSession({ expiresInMinutes: 10 });
    const { page } = await harness.open(session.checkoutUrl, DESKTOP);
    const countdown = () => page.locator('#countdown-value').textContent();
    await expect.poll(countdown).toMatch(/^(10:0[01]|9:5\d)$/); // Date has whole seconds

    harness.sandbox.advance(150);
    await setVisibility(page, 'hidden');
    await setVisibility(page, 'visible');
    await expect.poll(countdown, NOTICED_WITHIN).toMatch(/^7:[23]\d$/);

    harness.sandbox.advance(150);
    await focusWindow(page);
    await expect.poll(countdown, NOTICED_WITHIN).toMatch(/^[45]:\d\d$/);
  });

  it('shows the session expired at expiresAt on its own, without reading it again', async () => {
    const session = await harness.createSession({ expiresInMinutes: 2 });
    const opened = await harness.open(session.checkoutUrl, DESKTOP);
    const { page } = opened;
    await page.getByRole('button', { name: /^Pagar/ }).waitFor();
    harness.sandbox.advance(115);
    await focusWindow(page);
    await expect.poll(() => page.locator('#countdown-value').textContent(), NOTICED_WITHIN).toMatch(/^0:0\d$/);
    const readsBeforeExpiry = sessionReads(opened);

    await page.getByRole('heading', { name: 'El tiempo para pagar terminó' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#countdown').isHidden()).toBe(true);
    expect(await page.locator('#pay-form').isHidden()).toBe(true);
    await sleep(NO_REQUEST_WITHIN_MS);
    expect(sessionReads(opened)).toBe(readsBeforeExpiry);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-expired');
  });

  it(`reads the session every ${POLL_MS / 1000} s only while the page is visible, and never again once it shows closed`, async () => {
    const session = await harness.createSession({ expiresInMinutes: 60 });
    const opened = await harness.open(session.checkoutUrl, PHONE, { pausedClock: true });
    const { page } = opened;
    const reads = () => sessionReads(opened);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor();
    expect(reads()).toBe(1);

    await page.clock.runFor(POLL_MS - 1_000);
    await sleep(NO_REQUEST_WITHIN_MS);
    expect(reads()).toBe(1);
    await page.clock.runFor(1_000);
    await expect.poll(reads).toBe(2);

    // Another tab in front: no read however long it stays there; back in front: one read at once.
    await setVisibility(page, 'hidden');
    await page.clock.runFor(10 * POLL_MS);
    await sleep(NO_REQUEST_WITHIN_MS);
    expect(reads()).toBe(2);
    await setVisibility(page, 'visible');
    await expect.poll(reads).toBe(3);

    // The merchant closes the session: the next poll shows it, and the reads stop.
    const expired = await harness.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: harness.secretKey });
    expect(expired.status).toBe(200);
    await page.clock.runFor(POLL_MS);
    await page.getByRole('heading', { name: 'El comercio canceló este pago' }).waitFor();
    expect(reads()).toBe(4);
    await page.clock.runFor(10 * POLL_MS);
    await setVisibility(page, 'hidden');
    await setVisibility(page, 'visible');
    await focusWindow(page);
    await sleep(NO_REQUEST_WITHIN_MS);
    expect(reads()).toBe(4);
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

    // A pending charge is settled from the bank's record a minute later, when the page's poll reads the session
    // (every few seconds while the page waits for the bank).
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
