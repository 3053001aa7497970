import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, DESKTOP, launchChromium, PHONE, WAIT, WAIT_MS } from '../browser/support/checkout-browser.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { mkdirSync } from 'node:fs';

const ARTIFACTS_DIR = 'test-artifacts/docs';

/** An error's docUrl opened in Chromium: the errors page of the sandbox's own docs, scrolled to the code's entry. */
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
    it(`opens the code's entry, readable and accessible, offline (${name})`, async () => {
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
      const heading = page.locator('h3#error-parameter_unknown');
      await heading.waitFor(WAIT);
      // The code whole on one line (a table column once wrapped it as parameter_unkn / own), then its entry.
      expect(await heading.innerText()).toBe('parameter_unknown');
      expect(await heading.evaluate((el) => el.getClientRects().length === 1 && el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).lineHeight))).toBe(true);
      const entry = await page.evaluate(() => {
        const texts: string[] = [];
        for (let el = document.getElementById('error-parameter_unknown')?.nextElementSibling; el && el.tagName !== 'H3'; el = el.nextElementSibling) texts.push((el as HTMLElement).innerText);
        return texts.join('\n');
      });
      expect(entry).toMatch(/^400 Bad Request\. [\s\S]*Why: [\s\S]*How to fix: Remove the field[\s\S]*"code": "parameter_unknown"/);
      // The browser scrolled to the entry, and marks it.
      expect(await page.evaluate(() => location.hash)).toBe('#error-parameter_unknown');
      await expect.poll(() => heading.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }), WAIT).toBe(true);
      expect(await heading.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
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
