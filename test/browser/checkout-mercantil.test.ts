import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { MERCANTIL_TEST_DATA, SIMULATOR_CODES } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, DESKTOP, fillCard, PHONE, RETURN_URL, screenshot, startCheckoutHarness, WAIT, type CheckoutHarness } from './support/checkout-browser.ts';

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

  /** A Mercantil merchant in test mode and a debit session of Bs. 5,00 opened in the browser at `viewport`. */
  const openDebitSession = async (viewport: typeof DESKTOP, body: Record<string, unknown> = {}) => {
    const { sandbox } = harness;
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 500, currency: 'VES', description: 'Pedido 9', returnUrl: RETURN_URL, ...body } });
    const opened = await harness.open(created.body.checkoutUrl, viewport);
    await expect.poll(() => opened.page.getByRole('button', { name: /^Pagar/ }).textContent(), WAIT).toMatch(/5,00/);
    await fillCard(opened.page, { number: MERCANTIL_TEST_DATA.debit.cardNumber, month: '11', year: '2040', cvv: '111', holder: 'Ana Gómez', documentId: '999999' });
    await opened.page.getByRole('button', { name: /^Pagar/ }).click();
    await opened.page.getByLabel('Clave telefónica de Mercantil').waitFor(WAIT);
    return { ...opened, merchant, keys, reference: created.body.reference as string };
  };
  const clave = MERCANTIL_TEST_DATA.debit.otp;

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`${name}: the code step asks for the clave telefónica getauth names; a wrong clave or account type comes back to it with the entries left`, async () => {
      const { sandbox } = harness;
      const { page, requests, console } = await openDebitSession(viewport, { maxFailures: 2 });
      const step = page.locator('#otp-form');
      const field = page.getByLabel('Clave telefónica de Mercantil');
      const account = page.getByLabel('Tipo de cuenta de la tarjeta');

      // What the bank asks, from getauth: no message is coming, 8 digits, a numeric keyboard; no account chosen for the buyer.
      const asks = async () => ({
        intro: await page.locator('#otp-intro').textContent(),
        help: await page.locator('#otp-code-help').textContent(),
        maxLength: await field.getAttribute('maxlength'),
        inputMode: await field.getAttribute('inputmode'),
        account: await account.inputValue(),
        standing: await page.locator('#otp-standing').textContent(),
      });
      const asked = {
        intro: 'Escribe tu clave telefónica de Mercantil para confirmar el pago. No llega por mensaje: es una clave que ya tienes.',
        help: 'Es la clave de 8 dígitos que usas para confirmar operaciones por teléfono con Mercantil.',
        maxLength: '8',
        inputMode: 'numeric',
        account: '',
        standing: 'Te quedan 3 intentos para escribir la clave telefónica. Si no se confirma, podrás intentarlo 2 veces más con otra tarjeta.',
      };
      expect(await asks()).toEqual(asked);
      expect(await step.textContent()).not.toMatch(/te envió un código/);
      // A page opened again on the awaiting step says the same.
      await page.reload();
      await field.waitFor(WAIT);
      expect(await asks()).toEqual(asked);

      // The account type is required: nothing is sent without it.
      const otpPosts = () => requests.filter((r) => r.method === 'POST' && r.url.endsWith('/v1/checkout/otp')).length;
      await field.fill(clave);
      await page.getByLabel('Vuelve a escribir el CVV de la tarjeta').fill('111');
      await page.getByRole('button', { name: 'Confirmar' }).click();
      await page.locator('#otp-account-error').filter({ hasText: 'Elige si la tarjeta es de una cuenta corriente o de ahorros.' }).waitFor(WAIT);
      expect(otpPosts()).toBe(0);

      // A wrong clave: told as such, back on the code step, one entry less, no attempt of the session spent.
      await field.fill('22222222');
      await account.selectOption('CC');
      await page.getByRole('button', { name: 'Confirmar' }).click();
      const refused = (entries: string) => `Mercantil no aceptó la clave telefónica o el tipo de cuenta. Revisa los dos. ${entries}`;
      await step.getByRole('alert').filter({ hasText: refused('Te quedan 2 intentos para escribir la clave telefónica.') }).waitFor(WAIT);
      expect(await page.locator('#otp-standing').textContent()).toBe('Te quedan 2 intentos para escribir la clave telefónica. Si no se confirma, podrás intentarlo 2 veces más con otra tarjeta.');
      expect(await page.locator('#pay-form').isHidden()).toBe(true);

      // A wrong account type (the clave right): the same, one entry left.
      await field.fill(clave);
      await account.selectOption('CA');
      await page.getByRole('button', { name: 'Confirmar' }).click();
      await step.getByRole('alert').filter({ hasText: refused('Te queda 1 intento para escribir la clave telefónica.') }).waitFor(WAIT);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `mercantil-debit-refused-${name}`);

      await field.fill(clave);
      await account.selectOption('CC');
      await page.getByRole('button', { name: 'Confirmar' }).click();
      await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
      // Each refused pay is checked against the bank's record (search), as every Mercantil decline is.
      expect(sandbox.mercantil.calls().slice(-6).map((c) => c.operation)).toEqual(['getauth', 'pay', 'search', 'pay', 'search', 'pay']);
      const withCvv = requests.filter((r) => r.method === 'POST' && (r.body ?? '').includes('"cvv":"111"'));
      expect(withCvv.map((r) => new URL(r.url).pathname)).toEqual(['/v1/checkout/charge', '/v1/checkout/otp', '/v1/checkout/otp', '/v1/checkout/otp']);
      expect(console.join('\n')).not.toMatch(/Content Security Policy|pageerror/);
    });

    it(`${name}: "Usar otra tarjeta" leaves the code step, says the attempt did not go through, and pays with another card`, async () => {
      const { page, keys, reference } = await openDebitSession(viewport);
      const back = page.getByRole('button', { name: 'Usar otra tarjeta' });
      expect(await page.locator('#otp-back-block').textContent()).toContain('Este pago no se completará y contará como uno de tus intentos.');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `mercantil-debit-code-${name}`);
      await back.click();
      await page.locator('#pay-form').getByRole('alert').filter({ hasText: 'Elegiste pagar con otra tarjeta: el pago anterior no se confirmó.' }).waitFor(WAIT);
      const left = await harness.sandbox.request('GET', `/v1/sessions/${reference}`, { key: keys.secretTest });
      expect(left.body).toMatchObject({ status: 'failed', lastTransaction: { status: 'declined', errorCode: 'otp_abandoned' } });

      await fillCard(page, { number: MERCANTIL_TEST_DATA.credit.cardNumber, cvv: '123', holder: 'Ana Gómez', documentId: '18366876' });
      await page.getByRole('button', { name: /^Pagar/ }).click();
      await page.getByRole('heading', { name: '¡Pago aprobado!' }).waitFor(WAIT);
    });
  }

  it('offers no way back on the last attempt, where leaving would close the session', async () => {
    const { page } = await openDebitSession(DESKTOP, { maxFailures: 0 });
    expect(await page.locator('#otp-standing').textContent()).toBe('Te quedan 3 intentos para escribir la clave telefónica. Es el último intento de pago de esta sesión.');
    expect(await page.locator('#otp-back-block').isHidden()).toBe(true);
  });
});
