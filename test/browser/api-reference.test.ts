import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { DESKTOP, launchChromium, WAIT, WAIT_MS } from './support/checkout-browser.ts';

const ARTIFACTS_DIR = 'test-artifacts/docs';

/** The sandbox's interactive reference at /docs/openapi/ renders the served document with the network cut off: nothing from a CDN. */
describe('the API reference at /docs/openapi/', { timeout: 180_000 }, () => {
  let sandbox: TestSandbox;
  let browser: Browser;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  it('lists the operations and the webhook events offline, with no request leaving the sandbox', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    context.setDefaultTimeout(WAIT_MS);
    const origin = new URL(sandbox.url).origin;
    const offOrigin: string[] = [];
    await context.route('**/*', (route) => {
      if (new URL(route.request().url()).origin === origin) return route.continue();
      offOrigin.push(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${sandbox.url}/docs/openapi`);
    await page.getByText('POST', { exact: true }).first().waitFor(WAIT);
    await expect.poll(() => page.locator('.opblock').count(), WAIT).toBeGreaterThan(20);
    await page.getByText('/v1/sessions', { exact: true }).first().waitFor(WAIT);
    await page.getByText('charge.approved').first().waitFor(WAIT);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS_DIR}/api-reference.png`, fullPage: false });
    // An operation opened shows its recorded example and description, not numbers made up from the schema.
    const createSession = page.locator('#operations-Sessions-createSession');
    await createSession.locator('.opblock-summary').click();
    await createSession.locator('.opblock-body').waitFor(WAIT);
    await expect.poll(() => createSession.innerText(), WAIT).toContain('Pedido 42');
    const opened = await createSession.innerText();
    expect(opened).toContain('Idempotency-Key');
    expect(opened).toContain('Creates a short-lived payment session');
    expect(opened).not.toContain('-9007199254740991');
    await createSession.screenshot({ path: `${ARTIFACTS_DIR}/create-session.png` });
    expect(offOrigin).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
