import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCheckout } from '../../checkout/build.ts';
import { CHECKOUT_CSP } from '../../checkout/page-headers.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** The budget: JavaScript of the whole page, gzip. */
const JS_BUDGET_BYTES = 50 * 1024;

describe('checkout build', () => {
  const files = buildCheckout();
  const page = new TextDecoder().decode(files.find((f) => f.key === 'index.html')!.contents);

  it(`ships at most ${JS_BUDGET_BYTES / 1024} KB of JavaScript, gzip`, () => {
    const scripts = files.filter((f) => f.key.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    const gzipped = scripts.reduce((sum, f) => sum + gzipSync(f.contents).byteLength, 0);
    console.info(`checkout JavaScript: ${scripts[0]!.contents.byteLength} bytes, ${gzipped} bytes gzip`);
    expect(gzipped).toBeLessThanOrEqual(JS_BUDGET_BYTES);
  });

  it('names its content-hashed assets from the page, with no inline script or style', () => {
    for (const asset of files.filter((f) => f.key.startsWith('assets/'))) expect(page).toContain(`/checkout/${asset.key}`);
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/\sstyle=|<style|\son[a-z]+=/);
  });
});

describe('the sandbox serving the checkout', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  it('serves the page at /checkout with a strict CSP and security headers, never cached stale', async () => {
    const res = await sandbox.request('GET', '/checkout?session=cs_abc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CHECKOUT_CSP);
    expect(CHECKOUT_CSP).toContain("script-src 'self'");
    expect(CHECKOUT_CSP).toContain("connect-src 'self'");
    expect(CHECKOUT_CSP).toContain("form-action 'self'");
    expect(CHECKOUT_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.text).toContain('<html lang="es-VE">');
  });

  it('serves the assets named by the page as immutable, and nothing else under /checkout', async () => {
    const page = await sandbox.request('GET', '/checkout');
    const script = /src="(\/checkout\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    const res = await sandbox.request('GET', script);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBe(CHECKOUT_CSP);
    expect((await sandbox.request('GET', '/checkout/assets/missing.js')).status).toBe(404);
    expect((await sandbox.request('POST', '/checkout')).status).toBe(404);
  });

  it("stamps Date with the sandbox clock, which the page's countdown follows", async () => {
    sandbox.advance(3600);
    const res = await sandbox.request('GET', '/checkout');
    const serverNow = Date.parse(res.headers.get('date')!);
    expect(serverNow - Date.now()).toBeGreaterThan(3590_000);
  });
});
