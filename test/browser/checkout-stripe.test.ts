import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, DESKTOP, fillCard, RETURN_URL, screenshot, startCheckoutHarness, WAIT, type CheckoutHarness } from './support/checkout-browser.ts';

describe('checkout page: a USD session on Stripe (through its simulator)', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  it('asks no identity document, shows a decline in Spanish, then pays with Stripe\'s approved test card; the card goes only to our charge API', async () => {
    const { sandbox } = harness;
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_direct', USD: 'stripe' }, testMode: { stripe: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'stripe', JSON.stringify({ secretKey: 'sk_test_simulator0000000001' }));
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 2599, currency: 'USD', description: 'Pedido 7', returnUrl: RETURN_URL } });
    expect(created.status).toBe(201);
    const { page, requests, console } = await harness.open(created.body.checkoutUrl, DESKTOP);

    await expect.poll(() => page.getByRole('button', { name: /^Pagar/ }).textContent(), WAIT).toMatch(/25,99/);
    expect(await page.getByLabel('Número', { exact: true }).isVisible()).toBe(false);
    await expect.poll(() => sandbox.stripe.intentOf(created.body.reference)?.status, WAIT).toBe('requires_payment_method');

    await fillCard(page, { number: '4000000000009995', holder: 'Ana Gómez' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    // Stripe's insufficient_funds card: a reason the buyer can act on is told (security.md, round 4 finding 8).
    await page.getByRole('alert').filter({ hasText: /fondos suficientes/ }).waitFor(WAIT);
    await screenshot(page, 'stripe-declined');

    await fillCard(page, { number: '4242424242424242', holder: 'Ana Gómez' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    expect(await page.locator('#receipt-card').textContent()).toBe('Visa terminada en 4242');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'stripe-approved');

    expect(sandbox.stripe.intentOf(created.body.reference)).toMatchObject({ status: 'succeeded', amount_received: 2599 });
    const withCard = requests.filter((r) => `${r.url} ${r.body ?? ''}`.includes('4242424242424242'));
    expect(withCard.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /v1/checkout/charge']);
    expect(console.join('\n')).not.toMatch(/4242424242424242|Content Security Policy|pageerror/);
  });
});
