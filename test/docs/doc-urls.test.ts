import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsBaseUrlAt, docUrlFor } from '../../shared/http/request-id.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { answeredCodes, catalogueCodes } from './error-codes.ts';

/** The ids of an HTML page's elements. */
const idsOf = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

/**
 * Every error's docUrl opens its entry: the sandbox serves docs/ as HTML at /docs, and each code's docUrl (an
 * absolute URL to this sandbox) answers a page holding the code's anchor.
 */
describe("each error's docUrl, followed against the sandbox", { timeout: 120_000 }, () => {
  let sandbox: TestSandbox;
  let origin: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    origin = sandbox.url.replace('127.0.0.1', 'localhost');
  });
  afterAll(() => sandbox.stop());

  it('is an absolute URL of this sandbox: its own errors page, anchored at the code', async () => {
    const answers = [
      await sandbox.request('GET', '/v1/nothing-here'),
      await sandbox.request('GET', '/v1/sessions', { key: 'sk_test_nope' }),
      await sandbox.request('POST', '/__sandbox/clock', { body: { advanceSeconds: -1 } }),
    ];
    for (const res of answers) expect(res.body.docUrl).toBe(`${origin}/docs/errors#error-${res.body.code}`);
  });

  it("finds every code's anchor in the served HTML: the catalogue's codes, the ones the code base answers with, and the OpenAPI document's", async () => {
    const openapi = (await sandbox.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: { code?: string; docUrl?: string } }> }> }>> };
    const examples = Object.values(openapi.paths).flatMap((path) => Object.values(path).flatMap((op) => Object.values(op.responses).map((r) => r.content?.['application/json']?.example).filter((e) => e?.code && e.docUrl)));
    const openapiCodes = examples.map((e) => e!.code!);
    expect(openapiCodes.length).toBeGreaterThan(10);
    const codes = new Set([...catalogueCodes(), ...answeredCodes(), ...openapiCodes]);
    expect(codes.size).toBeGreaterThan(40);

    const pages = new Map<string, Set<string>>();
    for (const code of codes) {
      const url = new URL(docUrlFor(docsBaseUrlAt(origin), code));
      const page = `${sandbox.url}${url.pathname}`;
      if (!pages.has(page)) {
        const res = await fetch(page);
        expect(res.status, page).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        pages.set(page, idsOf(await res.text()));
      }
      expect(pages.get(page)!.has(url.hash.slice(1)), `${code}: no element with id ${url.hash.slice(1)} at ${page}`).toBe(true);
    }
    // The OpenAPI document's examples point at the same page and anchors.
    for (const example of examples) expect(new URL(example!.docUrl!).hash).toBe(`#error-${example!.code}`);
  });

  it('serves every docs/ page, links between them and the OpenAPI reference beside them, with no request elsewhere', async () => {
    const index = await fetch(`${sandbox.url}/docs/`);
    expect(index.status).toBe(200);
    const html = await index.text();
    const links = [...new Set([...html.matchAll(/href="(\/docs\/[^"#]*)/g)].map((m) => m[1]!))];
    expect(links).toEqual(expect.arrayContaining(['/docs/errors', '/docs/api', '/docs/guide', '/docs/contract', '/docs/security']));
    for (const link of links) expect((await fetch(`${sandbox.url}${link}`)).status, link).toBe(200);
    // Nothing loads from elsewhere (links to other sites are the reader's choice).
    expect(html).not.toMatch(/<(script|img|link)[^>]*(src|href)="(https?:)?\/\//);
    expect(index.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect((await fetch(`${sandbox.url}/docs`, { redirect: 'manual' })).headers.get('location')).toBe('/docs/');
    expect((await fetch(`${sandbox.url}/docs/openapi/`)).status).toBe(200);
  });

  it("links and examples name this sandbox's address, not the default port 4010", async () => {
    expect(new URL(origin).port).not.toBe('4010');
    const index = await (await fetch(`${sandbox.url}/docs/`)).text();
    expect(index).toContain(`<a href="${origin}/docs/">${origin}/docs/</a>`);
    expect(index).toContain(`href="${origin}/docs/openapi/"`);
    const guide = await (await fetch(`${sandbox.url}/docs/guide`)).text();
    expect(guide).toContain(`export SVC=${origin}`);
    expect(guide).toContain(`${origin}/docs/errors#error-&lt;code&gt;`);
    // Every page, the index and each it links to.
    const links = [...new Set([...index.matchAll(/href="(\/docs\/[^"#]*)/g)].map((m) => m[1]!))];
    expect(links.length).toBeGreaterThan(15);
    for (const link of links) expect(await (await fetch(`${sandbox.url}${link}`)).text(), link).not.toMatch(/localhost:4010/);
  });
});
