import { describe, expect, it } from 'vitest';
import { buildDocsSite } from '../../infra/docs-site.ts';

/** docs/index.md as the sandbox and the dashboard's site serve it: each page listed by its title, not its file name. */
describe('the docs index', () => {
  const files = buildDocsSite();
  const html = (key: string) => new TextDecoder().decode(files.find((file) => file.key === key)!.contents);
  /** A page's title, as its <title> and the navigation bar give it; `Idempotency-Key: the exact rules` may be shortened to its part before ": " or " (". */
  const titleOf = (page: string) => /<title>(.+) · svc payments docs<\/title>/.exec(html(`${page}.html`))![1]!.replace(/&amp;/g, '&');

  it('names every page of its tables by its title', () => {
    const rows = [...html('index.html').matchAll(/<tr>\s*<td><a href="\/docs\/([a-z0-9-]+)">(.*?)<\/a><\/td>/g)].map(([, page, text]) => ({ page: page!, text: text!.replace(/<\/?code>/g, '') }));

    expect(rows.map((row) => row.page)).toEqual(expect.arrayContaining(['guide', 'api', 'errors', 'operations', 'runbook', 'benchmarks']));
    expect(rows).toHaveLength(files.filter((file) => file.key.endsWith('.html') && file.key !== 'index.html').length);
    for (const { page, text } of rows) {
      expect(text, page).not.toMatch(/\.md$/);
      expect([titleOf(page), titleOf(page).split(/: | \(/)[0]], page).toContain(text);
    }
  });
});
