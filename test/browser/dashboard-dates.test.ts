/**
 * Dates and times in the dashboard as a Spanish-speaking merchant reads them, in Chromium on desktop and on a 390 px
 * phone with axe-core: a time never wraps inside itself ("6:26 p." / "m."), and the payments' date filters are typed
 * in the page's language (dd/mm/aaaa in Spanish, mm/dd/yyyy in English), whatever the browser's own locale.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT, checkoutPayment, DESKTOP, goTo, PHONE, screenshot, seriousViolations, signIn, startDashboardHarness, useTestData, WAIT, type DashboardHarness } from './support/dashboard-browser.ts';

const DEVICES = [['desktop', DESKTOP], ['phone', PHONE]] as const;

/** The times written in the page's main region ("6:26 p. m.", "6:26 PM") and those that a line break cuts. */
async function timesOnScreen(page: Page): Promise<{ times: string[]; cut: string[] }> {
  return page.evaluate(() => {
    const time = /\d{1,2}:\d{2}[\s\u00a0\u202f]*[ap]\.?[\s\u00a0\u202f]*m\.?/gi;
    const found = { times: [] as string[], cut: [] as string[] };
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (const match of node.data.matchAll(time)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        found.times.push(match[0]);
        if (lines.size > 1) found.cut.push(match[0]);
      }
    }
    return found;
  });
}

async function searchByDays(page: Page, from: string, to: string): Promise<void> {
  await page.getByLabel('Desde').fill(from);
  await page.getByLabel('Hasta').fill(to);
  await page.getByRole('button', { name: 'Buscar' }).click();
}

describe('dates and times in the dashboard', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  let reference: string;
  /** The payment's day in Caracas (the browser's time zone), as YYYY-MM-DD and as a Spanish page writes it. */
  let day: { iso: string; es: string; en: string };

  beforeAll(async () => {
    harness = await startDashboardHarness();
    reference = (await checkoutPayment(harness, 'cliente-fechas', 'approved')).reference;
    await checkoutPayment(harness, 'cliente-fechas', 'declined');
    const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Caracas' }).format(harness.sandbox.clock.now()).split('-');
    day = { iso: `${y}-${m}-${d}`, es: `${d}/${m}/${y}`, en: `${m}/${d}/${y}` };
  }, 120_000);
  afterAll(() => harness?.close());

  for (const [device, viewport] of DEVICES) {
    it(`keeps every time on one line, in the list and in a payment (${device})`, async () => {
      const { page, errors } = await harness.open(viewport);
      await signIn(page, harness.admin);
      await useTestData(page);
      await goTo(page, 'Pagos');
      await page.getByRole('link', { name: reference }).waitFor(WAIT);
      const list = await timesOnScreen(page);
      expect(list.times.length).toBeGreaterThanOrEqual(2);
      expect(list.cut).toEqual([]);
      await screenshot(page, `dates-${device}-payments`);

      await page.getByRole('link', { name: reference }).click();
      await page.getByRole('heading', { level: 1, name: `Pago ${reference}` }).waitFor(WAIT);
      await page.locator('.view > .loading').waitFor({ state: 'detached', ...WAIT });
      const detail = await timesOnScreen(page);
      expect(detail.times.length).toBeGreaterThanOrEqual(2);
      expect(detail.cut).toEqual([]);
      await screenshot(page, `dates-${device}-payment-detail`);
      expect(errors).toEqual([]);
    });

    it(`filters by days typed as the page's language writes them, whatever the browser's locale (${device})`, async () => {
      const { page, errors } = await harness.open(viewport);
      await signIn(page, harness.admin);
      await useTestData(page);
      await goTo(page, 'Pagos');
      const from = page.getByLabel('Desde');
      expect(await from.getAttribute('placeholder')).toBe('dd/mm/aaaa');
      expect(await page.locator(`#${await from.getAttribute('aria-describedby')}`).textContent()).toBe('Formato dd/mm/aaaa');

      await searchByDays(page, day.es, day.es);
      await expect.poll(() => new URL(page.url()).hash, WAIT).toContain(`from=${day.iso}`);
      expect(new URL(page.url()).hash).toContain(`to=${day.iso}`);
      await page.getByRole('link', { name: reference }).waitFor(WAIT);
      // Shown again as typed after the search (and on a reload of its address).
      await expect.poll(() => page.getByLabel('Desde').inputValue(), WAIT).toBe(day.es);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `dates-${device}-filtered`);

      // Not a day of the calendar: the browser says so, and nothing is searched.
      const before = page.url();
      await searchByDays(page, '31/02/2026', '');
      expect(await page.getByLabel('Desde').evaluate((input: HTMLInputElement) => input.validationMessage)).toBe('Escribe una fecha válida con el formato dd/mm/aaaa.');
      expect(page.url()).toBe(before);

      // In English the same filter is typed month first.
      await page.getByLabel('Idioma').selectOption('en');
      await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor(WAIT);
      const fromEn = page.getByLabel('From');
      await expect.poll(() => fromEn.getAttribute('placeholder'), WAIT).toBe('mm/dd/yyyy');
      expect(await fromEn.inputValue()).toBe(day.en);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `dates-${device}-filtered-english`);
      expect(errors).toEqual([]);
    });
  }
});
