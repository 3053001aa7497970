import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { MERCANTIL_TEST_DATA, SIMULATOR_CODES } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, DESKTOP, fillCard, RETURN_URL, screenshot, startCheckoutHarness, WAIT, type CheckoutHarness } from './support/checkout-browser.ts';

describe('checkout page: a VES session on Banco Mercantil (through its simulator)', BROWSER_TEST_TIMEOUT, () => {
  let harness: CheckoutHarness;
  beforeAll(async () => {
    harness = await startCheckoutHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  it("shows the bank's decline in Spanish, then pays with the bank's test credit card; the bank gets the buyer's browser", async () => {
    const { sandbox } = harness;
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 125_050, currency: 'VES', description: 'Pedido 8', returnUrl: RETURN_URL } });
    expect(created.status).toBe(201);
    const { page, requests, console } = await harness.open(created.body.checkoutUrl, DESKTOP);

    await expect.poll(() => page.getByRole('button', { name: /^Pagar/ }).textContent(), WAIT).toMatch(/1\.250,50/);
    await fillCard(page, { number: MERCANTIL_TEST_DATA.credit.cardNumber, cvv: '999', holder: 'Ana Gómez', documentId: '18366876' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('alert').filter({ hasText: /rechaz/ }).waitFor(WAIT);
    await screenshot(page, 'mercantil-declined');

    await fillCard(page, { number: MERCANTIL_TEST_DATA.credit.cardNumber, cvv: '123', holder: 'Ana Gómez' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'mercantil-approved');

    const pays = sandbox.mercantil.calls('pay').slice(-2);
    expect(pays.map((c) => (c.body.transaction as { amount: string }).amount)).toEqual(['1250.50', '1250.50']);
    expect((pays[1]!.body.client_identify as { browser_agent: string }).browser_agent).toMatch(/Chrome/);
    const session = await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest });
    expect(session.body).toMatchObject({ status: 'completed', lastTransaction: { status: 'approved' } });
    const declined = (await sandbox.deps.outbox.listForMerchant(merchant.id, 'test')).map((e) => e.envelope).find((e) => e.type === 'charge.declined');
    expect(declined?.data).toMatchObject({ errorCode: SIMULATOR_CODES.WRONG_CVV });
    const withCard = requests.filter((r) => `${r.url} ${r.body ?? ''}`.includes(MERCANTIL_TEST_DATA.credit.cardNumber));
    expect(withCard.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /v1/checkout/charge', 'POST /v1/checkout/charge']);
    expect(console.join('\n')).not.toMatch(/5412478846849445|Content Security Policy|pageerror/);
  });

  it("pays with the bank's test debit card (it fails Luhn): the code step asks the code, the CVV and the account again", async () => {
    const { sandbox } = harness;
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 500, currency: 'VES', description: 'Pedido 9', returnUrl: RETURN_URL } });
    const { page, requests, console } = await harness.open(created.body.checkoutUrl, DESKTOP);

    await expect.poll(() => page.getByRole('button', { name: /^Pagar/ }).textContent(), WAIT).toMatch(/5,00/);
    await fillCard(page, { number: MERCANTIL_TEST_DATA.debit.cardNumber, month: '11', year: '2040', cvv: '111', holder: 'Ana Gómez', documentId: '999999' });
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByLabel('Código de verificación').waitFor(WAIT);
    await page.getByLabel('Código de verificación').fill('11111111');
    await page.getByLabel('Cuenta de la tarjeta (corriente o ahorros)').selectOption('CC');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.locator('#otp-cvv-error').filter({ hasText: /código de seguridad/ }).waitFor(WAIT);
    await page.getByLabel('Vuelve a escribir el CVV de la tarjeta').fill('111');
    await screenshot(page, 'mercantil-debit-code');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    await screenshot(page, 'mercantil-debit-approved');

    expect(sandbox.mercantil.calls().slice(-2).map((c) => c.operation)).toEqual(['getauth', 'pay']);
    const withCvv = requests.filter((r) => r.method === 'POST' && (r.body ?? '').includes('"cvv":"111"'));
    expect(withCvv.map((r) => new URL(r.url).pathname)).toEqual(['/v1/checkout/charge', '/v1/checkout/otp']);
    expect(console.join('\n')).not.toMatch(/Content Security Policy|pageerror/);
  });
});
