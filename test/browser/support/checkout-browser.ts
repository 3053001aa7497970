/**
 * Browser tests of the checkout page: Debian's Chromium driven by playwright-core against the real sandbox.
 * Fails loudly when Chromium is missing: these tests run in CI (.ci/run installs it), never skipped.
 */
import type axe from 'axe-core';
import { expect } from 'vitest';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { BrandingInput } from '../../../shared/domain/merchant-branding.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';

const CHROMIUM_PATH = '/usr/bin/chromium-headless-shell';
const ARTIFACTS_DIR = 'test-artifacts/checkout';
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * How long any wait for the page may take: generous, because CI shares two cores with other work (a page load at
 * load 9 took over a second). A wait ends as soon as its condition holds, so a quiet machine pays nothing for it.
 * Every expect.poll and every Playwright wait in test/browser uses it (Playwright's own default is set to it too).
 */
export const WAIT_MS = 30_000;
export const WAIT = { timeout: WAIT_MS } as const;
/** For a describe block: a test of several steps, each of which may take up to WAIT_MS on a busy machine. */
export const BROWSER_TEST_TIMEOUT = { timeout: 240_000 } as const;

/** The buyers' time zone in these tests: the receipt names it. */
export const BUYER_TIME_ZONE = 'America/Caracas';

/** The harness merchant's public name (its account name is "Test merchant", which buyers must not see). */
export const BUSINESS_NAME = 'Café El Ávila';

/** Where the tests' merchant sends buyers after paying; answered by the browser context itself (no network). */
export const RETURN_URL = 'https://tienda.example/pedido/42/gracias';

export const TEST_CARDS = {
  approved: '4111111111111111',
  /** Not in the sandbox bank's catalogue: do not honor (0005), the generic decline every buyer may read. */
  declined: '4000000000000010',
  insufficientFunds: '4000000000000002',
  wrongCvv: '4000000000000127',
  lost: '4000000000009961',
  stolen: '4000000000009979',
  otp: '4000000000003220',
  /** Charged at the bank, but the answer never arrives within the gateway's deadline. */
  bankSilent: '4000000000009995',
} as const;
export const OTP_CODE = '123456';

export type CreatedSession = { reference: string; checkoutUrl: string; [key: string]: unknown };

export interface CheckoutHarness {
  sandbox: TestSandbox;
  secretKey: string;
  merchantId: string;
  /** The harness merchant's logo URL, as the checkout read names it. */
  logoUrl: string;
  /** Creates a VES session as the merchant's server would and returns it (checkoutUrl included). */
  createSession(body?: Record<string, unknown>): Promise<CreatedSession>;
  /** Another merchant of the same sandbox, branded (or not) before its first request: the API caches a merchant 30 s. */
  otherMerchant(branding?: BrandingInput): Promise<{ merchantId: string; createSession(body?: Record<string, unknown>): Promise<CreatedSession> }>;
  /**
   * A new page at the session's checkout, sized as asked, recording what the page sends and logs. Each page has a
   * browser context of its own (fresh storage and cookies, its own clock), so nothing carries over between tests. With
   * `pausedClock`, the page's timers and Date stand still until the test moves them with Playwright's clock
   * (page.clock.runFor), so a test can pass the page's poll interval exactly and without waiting for it.
   */
  open(checkoutUrl: string, viewport?: { width: number; height: number }, options?: { pausedClock?: boolean }): Promise<CheckoutPage>;
  close(): Promise<void>;
}

export interface CheckoutPage {
  page: Page;
  /** Every request the page made: URL, method and body. */
  requests: { url: string; method: string; body: string | null; idempotencyKey: string | null }[];
  /** Console messages and page errors (a CSP violation shows up here). */
  console: string[];
}

/**
 * Debian's Chromium as every browser test starts it: its headless shell (package chromium-headless-shell, the same
 * Chromium build without the desktop browser's window layer; Playwright runs headless tests on a headless shell too),
 * which took 42 % less CPU than `chromium --headless` over test/browser/dashboard-roles.test.ts (docs/benchmarks.md).
 * Without the background-networking flags its connections are refused by this machine's closed network, many at a time.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium's headless shell is missing at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium-headless-shell" (.ci/run does this in CI).`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

export async function startCheckoutHarness(): Promise<CheckoutHarness> {
  const sandbox = await startTestSandbox();
  const browser = await launchChromium();
  const newMerchant = async (branding?: BrandingInput) => {
    const { merchant, keys } = await sandbox.newMerchant();
    const branded = branding ? await sandbox.deps.merchants.updateBranding(merchant.id, branding) : merchant;
    const createSession = async (body: Record<string, unknown> = {}) => {
      const created = await sandbox.request('POST', '/v1/sessions', {
        key: keys.secretTest,
        body: { amountMinor: 125050, currency: 'VES', description: 'Pedido 42: dos cafés y un pan de jamón', returnUrl: RETURN_URL, ...body },
      });
      if (created.status !== 201) throw new Error(`Session not created: ${created.status} ${created.text}`);
      return created.body as CreatedSession;
    };
    return { merchant: branded, keys, createSession };
  };
  const main = await newMerchant({ businessName: BUSINESS_NAME, logo: { contentType: 'image/png', bytes: await drawLogo(browser) } });

  return {
    sandbox,
    secretKey: main.keys.secretTest,
    merchantId: main.merchant.id,
    logoUrl: `/v1/checkout/logos/${main.merchant.id}/${main.merchant.logo!.hash}`,
    createSession: main.createSession,
    async otherMerchant(branding) {
      const other = await newMerchant(branding);
      return { merchantId: other.merchant.id, createSession: other.createSession };
    },
    async open(checkoutUrl, viewport = DESKTOP, options = {}) {
      const context = await browser.newContext({ locale: 'es-VE', timezoneId: BUYER_TIME_ZONE });
      context.setDefaultTimeout(WAIT_MS);
      context.setDefaultNavigationTimeout(WAIT_MS);
      await context.route('https://tienda.example/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><html lang="es"><title>Tienda</title><h1>Gracias por tu compra</h1></html>' }),
      );
      const page = await context.newPage();
      // Playwright's clock belongs to the context: a paused one here never reaches another test's page.
      if (options.pausedClock) {
        await page.clock.install();
        await page.clock.pauseAt(Date.now() + 1_000);
      }
      await page.setViewportSize(viewport);
      const opened: CheckoutPage = { page, requests: [], console: [] };
      page.on('request', (request) => opened.requests.push({ url: request.url(), method: request.method(), body: request.postData(), idempotencyKey: request.headers()['idempotency-key'] ?? null }));
      page.on('console', (message) => opened.console.push(`${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => opened.console.push(`pageerror: ${error.message}`));
      await page.goto(checkoutUrl, WAIT);
      return opened;
    },
    async close() {
      await browser.close();
      await sandbox.stop();
    },
  };
}

/** A merchant's logo as a real PNG, drawn by the browser itself (a coffee-brown badge with the initials). */
async function drawLogo(browser: Browser): Promise<Uint8Array> {
  const page = await browser.newPage();
  try {
    const dataUrl = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 192;
      canvas.height = 96;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#6b3e26';
      g.beginPath();
      g.roundRect(0, 0, 192, 96, 20);
      g.fill();
      g.fillStyle = '#fff4e0';
      g.font = 'bold 52px sans-serif';
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillText('CEA', 96, 52);
      return canvas.toDataURL('image/png');
    });
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  } finally {
    await page.close();
  }
}

/** The merchant header, as the buyer sees it on every state: the business name, and the logo loaded when there is one. */
export async function merchantShown(page: Page): Promise<{ name: string | null; logo: 'loaded' | 'hidden' | 'broken' }> {
  const name = await page.locator('#merchant-name').textContent();
  const logo = page.locator('#merchant-logo');
  if (await logo.isHidden()) return { name, logo: 'hidden' };
  const loaded = await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
  return { name, logo: loaded ? 'loaded' : 'broken' };
}

/**
 * Waits until every request the page started before now has reached the recorder: a marker request is sent from the
 * page and awaited, since the browser reports requests in the order they start. This replaces sleeping "long enough"
 * before asserting that the page sent nothing.
 */
export async function settleRequests({ page, requests }: CheckoutPage): Promise<void> {
  const marker = `/checkout/assets/settle-${crypto.randomUUID()}`;
  await page.evaluate((url) => fetch(url, { cache: 'no-store' }).then(() => undefined, () => undefined), marker);
  await expect.poll(() => requests.some((r) => r.url.endsWith(marker)), WAIT).toBe(true);
}

/** The buyer leaves the receipt for the shop with the link (instead of waiting out the countdown). */
export async function backToShop(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Volver a la tienda' }).click();
  await page.waitForURL(RETURN_URL, WAIT);
}

/**
 * axe-core run inside the page (evaluated through the DevTools protocol, so the page's CSP stays as served). axe is
 * loaded once per document: a hash navigation keeps it, and a page load starts without it.
 */
export async function accessibilityViolations(page: Page): Promise<{ id: string; impact: string | null; help: string; nodes: string[] }[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.map((n) => n.html) }));
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** How many times the page has read its session (GET /v1/checkout/sessions/...). */
export const sessionReads = ({ requests }: CheckoutPage) => requests.filter((r) => r.method === 'GET' && r.url.includes('/v1/checkout/sessions/')).length;

/**
 * The buyer switches to another tab (hidden) or back (visible). Headless Chromium keeps every page visible, so
 * the page's document is told so, as the browser would: the state, then the visibilitychange event.
 */
export async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((s) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => s === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

/** The buyer comes back to the window (from another application): the window gets focus. */
export async function focusWindow(page: Page): Promise<void> {
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
}

/** Fills the new-card form the way a buyer types it. */
export async function fillCard(page: Page, card: { number: string; month?: string; year?: string; cvv?: string; holder?: string; documentId?: string }): Promise<void> {
  await page.getByLabel('Número de la tarjeta').fill(card.number);
  await page.getByLabel('Mes (MM)').fill(card.month ?? '12');
  await page.getByLabel('Año (AAAA)').fill(card.year ?? '2030');
  await page.getByLabel('Código de seguridad (CVV)').fill(card.cvv ?? '123');
  if (card.holder !== undefined) await page.getByLabel('Nombre del titular (como aparece en la tarjeta)').fill(card.holder);
  if (card.documentId !== undefined) await page.getByLabel('Número', { exact: true }).fill(card.documentId);
}
