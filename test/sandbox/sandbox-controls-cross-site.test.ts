/**
 * Issue 21 finding 12: POST /__sandbox/clock (and the other sandbox controls that change state) could be triggered
 * from any web page: a form or a no-cors fetch sends text/plain from any Origin. The controls now take JSON only
 * (which a page elsewhere cannot send without a CORS preflight the sandbox never grants) and refuse a foreign Origin
 * or a cross-site Sec-Fetch-Site; curl (no Origin) and the sandbox's own page still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('sandbox controls refuse cross-site requests', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${sandbox.url}${path}`, { method: 'POST', body, headers });
  const clockBody = JSON.stringify({ advanceSeconds: 3600 });

  it('refuses to move the clock from a page elsewhere, whatever it sends, and the clock stays where it was', async () => {
    const before = sandbox.clock.now();
    const attempts: [Record<string, string>, number, string][] = [
      // What an HTML form or a no-cors fetch can send: no preflight, any page.
      [{ 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' }, 403, 'cross_site_request'],
      [{ 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
      [{ 'content-type': 'application/x-www-form-urlencoded', origin: 'null' }, 403, 'cross_site_request'],
      // JSON, as a page would send after a preflight, or a browser that labels it cross-site.
      [{ 'content-type': 'application/json', origin: 'https://evil.example' }, 403, 'cross_site_request'],
      [{ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, 403, 'cross_site_request'],
      [{ 'content-type': 'application/json', 'sec-fetch-site': 'same-site', origin: 'http://other.localhost:4010' }, 403, 'cross_site_request'],
    ];
    for (const [headers, status, code] of attempts) {
      const res = await post('/__sandbox/clock', clockBody, headers);
      const body = (await res.json()) as { code: string };
      expect({ headers, status: res.status, code: body.code }).toEqual({ headers, status, code });
    }
    // Less than the hour any of them asked for: none moved it.
    expect(sandbox.clock.now() - before).toBeLessThan(3_600_000);
  });

  it('refuses the bank control the same way', async () => {
    const body = JSON.stringify({ cardNumber: '5555 5555 5555 4444' });
    expect((await post('/__sandbox/bank/reverification', body, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('/__sandbox/bank/reverification', body, { 'content-type': 'application/json', origin: 'https://evil.example' })).status).toBe(403);
  });

  it('refuses a resend posted from another origin even when the browser sends no Sec-Fetch-Site', async () => {
    const res = await post('/__sandbox/deliveries/wd_nothing/retry', 'merchant=mer_x&mode=test', { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('still moves the clock for curl (JSON, no Origin) and for a page of the sandbox itself', async () => {
    const before = sandbox.clock.now();
    const curl = await post('/__sandbox/clock', JSON.stringify({ advanceSeconds: 60 }), { 'content-type': 'application/json' });
    expect(curl.status).toBe(200);
    const own = await post('/__sandbox/clock', JSON.stringify({ advanceSeconds: 60 }), { 'content-type': 'application/json; charset=utf-8', origin: sandbox.url, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    expect(sandbox.clock.now() - before).toBeGreaterThanOrEqual(120_000);
  });
});
