import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';
import { accessibilityViolations, DESKTOP, launchChromium, PHONE, WAIT, WAIT_MS } from './support/checkout-browser.ts';

const ARTIFACTS_DIR = 'test-artifacts/sandbox';

/** The activity page as a developer uses it: read a request id off it, see where a webhook went, press Resend. */
describe('the sandbox activity page in Chromium', { timeout: 180_000 }, () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  let browser: Browser;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startReceiver();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await sandbox?.stop();
  });

  it('shows requests with their ids, deliveries with their endpoint, and resends one with its button, with no script and no axe violation', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${receiver.url}/activity` } });
    const refused = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 0, currency: 'VES' } });
    const session = await openSession(sandbox, keys.secretTest);
    await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });
    await sandbox.background.drain();
    expect(receiver.received.filter((r) => r.path === '/activity')).toHaveLength(1);

    const context = await browser.newContext({ viewport: DESKTOP });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${sandbox.url}/__sandbox/?merchant=${merchant.id}`);
    await page.getByRole('cell', { name: refused.headers.get('request-id')!, exact: true }).waitFor(WAIT);
    await page.getByRole('cell', { name: `${receiver.url}/activity`, exact: true }).first().waitFor(WAIT);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS_DIR}/activity.png`, fullPage: true });
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: /^Resend wd_/ }).first().click();
    await page.getByRole('status').waitFor(WAIT);
    expect(await page.getByRole('status').innerText()).toContain('Resend queued');
    expect(new URL(page.url()).searchParams.get('notice')).toBe('resent');
    await sandbox.background.drain();
    expect(receiver.received.filter((r) => r.path === '/activity')).toHaveLength(2);
    await page.reload();
    await page.getByText('"manual": true').first().waitFor({ ...WAIT, state: 'attached' });
    await page.screenshot({ path: `${ARTIFACTS_DIR}/activity-resent.png`, fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the pago móvil payments the Mercantil simulator received, phones masked, at desktop and 390 px with no axe violation', async () => {
    const { merchant } = await sandbox.newMerchant();
    const banesco = await sandbox.request('POST', '/__sandbox/pago-movil/payments', { body: { amountMinor: 125050, payerPhone: '0414-765.43.21', payerBankCode: '0134', reference: '84840003380', date: '2025-03-17' } });
    const mercantil = await sandbox.request('POST', '/__sandbox/pago-movil/payments', { body: { amountMinor: 5250, payerPhone: '04241112233' } });
    expect([banesco.status, mercantil.status]).toEqual([201, 201]);

    for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const context = await browser.newContext({ viewport });
      context.setDefaultTimeout(WAIT_MS);
      const page = await context.newPage();
      await page.goto(`${sandbox.url}/__sandbox/?merchant=${merchant.id}`);
      const table = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'payer phone' }) });
      const banescoRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: '84840003380', exact: true }) });
      await banescoRow.waitFor(WAIT);
      expect(await banescoRow.getByRole('cell').allInnerTexts()).toEqual(expect.arrayContaining(['84840003380', '*******4321', '0134 Banesco', 'Bs. 1,250.50', '2025-03-17']));
      const mercantilRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: mercantil.body.reference, exact: true }) });
      expect(await mercantilRow.getByRole('cell').allInnerTexts()).toEqual(expect.arrayContaining(['*******2233', '0105 Mercantil', 'Bs. 52.50', mercantil.body.date]));
      const html = await page.content();
      expect(html).not.toContain('04147654321');
      expect(html).not.toContain('584241112233');
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS_DIR}/activity-pago-movil-${name}.png`, fullPage: true });
      expect(await accessibilityViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
