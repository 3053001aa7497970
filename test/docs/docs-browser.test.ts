import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, DESKTOP, launchChromium, PHONE, WAIT, WAIT_MS } from '../browser/support/checkout-browser.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { mkdirSync } from 'node:fs';

const ARTIFACTS_DIR = 'test-artifacts/docs';

/** An error's docUrl opened in Chromium: the errors page of the sandbox's own docs, scrolled to the code's row. */
describe("an error's docUrl in a browser", { timeout: 180_000 }, () => {
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

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`opens the code's row, readable and accessible, offline (${name})`, async () => {
      const { keys } = await sandbox.newMerchant();
      const refused = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amount: 10.5, currency: 'VES' } });
      expect(refused.body).toMatchObject({ code: 'parameter_unknown', message: 'Unknown parameter: amount. Did you mean amountMinor?' });

      const context = await browser.newContext({ viewport });
      context.setDefaultTimeout(WAIT_MS);
      const offOrigin: string[] = [];
      await context.route('**/*', (route) => {
        if (new URL(route.request().url()).port === new URL(sandbox.url).port) return route.continue();
        offOrigin.push(route.request().url());
        return route.abort();
      });
      const page = await context.newPage();
      const answer = await page.goto(refused.body.docUrl);
      expect(answer?.status()).toBe(200);
      const row = page.locator('tr:has(#error-parameter_unknown)');
      await row.waitFor(WAIT);
      expect(await row.innerText()).toMatch(/parameter_unknown[\s\S]*remove it/);
      // The browser scrolled to the row, and marks it.
      expect(await page.evaluate(() => location.hash)).toBe('#error-parameter_unknown');
      await expect.poll(() => row.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }), WAIT).toBe(true);
      expect(await row.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
      // Nothing scrolls sideways but the wide tables themselves.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS_DIR}/error-entry-${name}.png` });
      expect(offOrigin).toEqual([]);
      await context.close();
    });
  }
});
