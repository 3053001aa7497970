import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** /favicon.ico, which browsers ask for on every page: the sandbox serves the sites' icon (infra/site-icon.ts). */
describe('the sites’ icon', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('is served at /favicon.ico as an ICO image, the very file the CloudFront sites deploy', async () => {
    const res = await fetch(`${sandbox.url}/favicon.ico`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    expect(bytes).toEqual(readFileSync('infra/site-icon/favicon.ico'));
    expect((await fetch(`${sandbox.url}/favicon.ico`, { method: 'HEAD' })).status).toBe(200);
  });

  it.each(['/checkout', '/dashboard/', '/docs/', '/docs/errors'])('is linked from %s', async (path) => {
    const page = await (await fetch(`${sandbox.url}${path}`)).text();
    expect(page).toContain('<link rel="icon" href="/favicon.ico">');
  });
});
