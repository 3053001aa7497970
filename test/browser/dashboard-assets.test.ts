import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard } from '../../dashboard/build.ts';
import { DASHBOARD_CSP } from '../../dashboard/page-headers.ts';
import { EVENT_TYPES } from '../../shared/domain/event-types.ts';
import { AUTH_TYPES, CREDENTIAL_NAMES } from '../../shared/webhooks/auth-fields.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** The whole dashboard's JavaScript, gzip: it loads once per sign-in, on office connections as well as phones. */
const JS_BUDGET_BYTES = 60 * 1024;

/** Every key path of a dictionary, functions as leaves. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keyPaths(inner, prefix ? `${prefix}.${key}` : key));
}

describe('dashboard build', () => {
  const files = buildDashboard();
  const page = new TextDecoder().decode(files.find((f) => f.key === 'index.html')!.contents);

  it(`ships one script of at most ${JS_BUDGET_BYTES / 1024} KB gzip, named by the page with its content hash`, () => {
    const scripts = files.filter((f) => f.key.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.key).toMatch(/^assets\/main-[A-Z0-9]{8}\.js$/);
    expect(gzipSync(scripts[0]!.contents).byteLength).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    for (const asset of files.filter((f) => f.key.startsWith('assets/'))) expect(page).toContain(`/dashboard/${asset.key}`);
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/\sstyle=|<style|\son[a-z]+=/);
  });

  it("bundles the API's own event types, auth types and credential fields (dependency-free modules of shared/)", () => {
    const script = new TextDecoder().decode(files.find((f) => f.key.endsWith('.js'))!.contents);
    for (const name of [...EVENT_TYPES, ...AUTH_TYPES, ...CREDENTIAL_NAMES]) expect(script).toContain(`"${name}"`);
  });

  it('has every text in Spanish and in English under the same keys', async () => {
    const { es } = await import('../../dashboard/src/messages/es.ts');
    const { en } = await import('../../dashboard/src/messages/en.ts');
    expect(keyPaths(en).sort()).toEqual(keyPaths(es).sort());
  });
});

describe('the sandbox serving the dashboard', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  it('serves the page at /dashboard/ with a strict CSP, no framing and no caching of the page', async () => {
    const res = await sandbox.request('GET', '/dashboard/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("connect-src 'self'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.text).toContain('<html lang="es">');
  });

  it('redirects /dashboard to /dashboard/, serves its assets as immutable and nothing else under /dashboard', async () => {
    const bare = await fetch(`${sandbox.url}/dashboard`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/dashboard/');
    const page = await sandbox.request('GET', '/dashboard/');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    const res = await sandbox.request('GET', script);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await sandbox.request('GET', '/dashboard/assets/missing.js')).status).toBe(404);
    expect((await sandbox.request('POST', '/dashboard/')).status).toBe(404);
  });
});
