import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_CREDENTIAL_SET } from '../../shared/connectors/mercantil/credentials.ts';
import { MERCANTIL_TEST_DATA } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, DESKTOP, fillCard, PHONE, RETURN_URL, screenshot, startCheckoutHarness, WAIT, type CheckoutHarness } from './support/checkout-browser.ts';

const SANDBOX_BANNER = 'Entorno de pruebas: no se mueve dinero real. Ningún banco ni procesador real recibe este pago.';

/** What the receipt rows say, by their labels, as the buyer reads them. */
async function receiptRows(page: Page): Promise<Record<string, string>> {
  return page.locator('.receipt-details > div:visible').evaluateAll((rows) =>
    Object.fromEntries(rows.map((row) => [row.querySelector('dt')!.textContent!.trim(), row.querySelector('dd')!.textContent!.trim()])),
  );
}

/**
 * Issue 35 items 8 and 9: the receipt says which card (Maestro included), debit or credit where a source tells, and a
 * reference the buyer can use with their bank; in the sandbox every session, live included, says it is simulated.
 */
describe('checkout page: the card on the receipt, and the sandbox saying so', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  const mercantilMerchant = async () => {
    const { merchant, keys } = await harness.sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } } });
    await loadBankCredentials(harness.sandbox.deps, merchant.id, 'mercantil', JSON.stringify({ ...SIMULATOR_CREDENTIAL_SET, test: SIMULATOR_CREDENTIAL_SET }));
    return keys;
  };

  it("Mercantil's test debit card (a Maestro): brand, debit and the bank's reference on the receipt (390 px)", async () => {
    const keys = await mercantilMerchant();
    const created = await harness.sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 500, currency: 'VES', description: 'Pedido 9', returnUrl: RETURN_URL } });
    const { debit } = MERCANTIL_TEST_DATA;
    // Paid through the API (the code step is not this test's subject), then opened: the receipt of a paid session.
    const charged = await harness.sandbox.request('POST', '/v1/checkout/charge', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { sessionReference: created.body.reference, card: { number: debit.cardNumber, expMonth: 11, expYear: 2040, cvv: debit.cvv, holderName: 'Ana Gómez' }, document: { type: 'V', id: '999999' } },
    });
    expect(charged.body.nextAction).toMatchObject({ type: 'otp' });
    const confirmed = await harness.sandbox.request('POST', '/v1/checkout/otp', {
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: { sessionReference: created.body.reference, transactionReference: charged.body.transaction.reference, code: debit.otp, cvv: debit.cvv, accountType: debit.accountType },
    });
    expect(confirmed.body.transaction).toMatchObject({ status: 'approved', card: { brand: 'maestro', lastFour: '7890', funding: 'debit' } });

    const { page } = await harness.open(created.body.checkoutUrl, PHONE);
    await page.getByRole('heading', { name: 'Este pago ya fue realizado' }).waitFor(WAIT);
    const rows = await receiptRows(page);
    expect(rows).toMatchObject({ Tarjeta: 'Maestro terminada en 7890', 'Tipo de tarjeta': 'Débito', 'Referencia del banco': confirmed.body.transaction.processorReference });
    // Mercantil's card API returns no authorization code, and no source names the issuing bank: no row for either.
    expect(Object.keys(rows)).not.toContain('Autorización');
    expect(Object.keys(rows).join(' ')).not.toMatch(/Banco emisor/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'phone-receipt-maestro-debit');
  });

  it("Stripe: the issuer's authorization code and credit on the receipt, never the PaymentIntent id, which the merchant keeps (desktop)", async () => {
    const { sandbox } = harness;
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_direct', USD: 'stripe' }, testMode: { stripe: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'stripe', JSON.stringify({ secretKey: 'sk_test_simulator0000000001' }));
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 2599, currency: 'USD', description: 'Pedido 7', returnUrl: RETURN_URL } });
    const { page } = await harness.open(created.body.checkoutUrl, DESKTOP);
    await fillCard(page, { number: '4242424242424242', holder: 'Ana Gómez' });
    const answer = page.waitForResponse('**/v1/checkout/charge', WAIT);
    await page.getByRole('button', { name: /^Pagar/ }).click();
    const { transaction } = await (await answer).json();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Quedarme en esta página' }).click();

    const intent = sandbox.stripe.intentOf(created.body.reference)!;
    expect(transaction.processorReference).toBeNull();
    expect(transaction.authorizationCode).toMatch(/^\d{6}$/);
    expect(await receiptRows(page)).toMatchObject({ Tarjeta: 'Visa terminada en 4242', 'Tipo de tarjeta': 'Crédito', Autorización: transaction.authorizationCode });
    expect(await page.locator('main').innerText()).not.toContain(intent.id);
    const merchantView = await sandbox.request('GET', `/v1/transactions/${transaction.reference}`, { key: keys.secretTest });
    expect(merchantView.body).toMatchObject({ processorReference: intent.id, authorizationCode: transaction.authorizationCode, card: { funding: 'credit' } });
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'desktop-receipt-stripe');
  });

  for (const viewport of [DESKTOP, PHONE]) {
    const size = viewport === PHONE ? 'phone' : 'desktop';
    it(`a live session on the simulated Mercantil says, on the form and on the receipt, that no real money moves (${size})`, async () => {
      const keys = await mercantilMerchant();
      const created = await harness.sandbox.request('POST', '/v1/sessions', { key: keys.secretLive, body: { amountMinor: 125_050, currency: 'VES', description: 'Pedido 10', returnUrl: RETURN_URL } });
      expect(created.status).toBe(201);
      const { page } = await harness.open(created.body.checkoutUrl, viewport);
      const banner = page.locator('#sandbox-banner');
      await banner.waitFor(WAIT);
      expect(await banner.innerText()).toBe(SANDBOX_BANNER);
      // One banner: a live session has no test-mode banner, and a test session's would repeat this one.
      expect(await page.locator('#test-banner').isHidden()).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${size}-sandbox-live-form`);

      await fillCard(page, { number: MERCANTIL_TEST_DATA.credit.cardNumber, cvv: MERCANTIL_TEST_DATA.credit.cvv, holder: 'Ana Gómez', documentId: '18366876' });
      await page.getByRole('button', { name: /^Pagar/ }).click();
      await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
      await page.getByRole('button', { name: 'Quedarme en esta página' }).click();
      expect(await banner.isVisible()).toBe(true);
      expect(await page.locator('#receipt-test').isVisible()).toBe(true);
      expect(await receiptRows(page)).toMatchObject({ Tarjeta: 'Mastercard terminada en 9445', 'Tipo de tarjeta': 'Crédito' });
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `${size}-sandbox-live-receipt`);
    });
  }

  it('a test session shows the one sandbox banner, not a second test-mode one', async () => {
    const session = await harness.createSession();
    const { page } = await harness.open(session.checkoutUrl, PHONE);
    await page.getByRole('button', { name: /^Pagar/ }).waitFor(WAIT);
    expect(await page.locator('#sandbox-banner').isVisible()).toBe(true);
    expect(await page.locator('#test-banner').isHidden()).toBe(true);
  });
});
