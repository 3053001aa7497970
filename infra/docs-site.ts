/**
 * The docs as a small static site: every docs/*.md rendered to HTML (marked, in process: no CDN, nothing fetched),
 * one page per file at /docs/<name> (docs/index.md is /docs/), with a navigation bar and one stylesheet. Headings
 * get GitHub's anchors, so a link written for the repository (errors.md#request-ids) opens the same place here, and
 * links between the .md files become links between the pages. The sandbox serves these files at /docs; the stack
 * deploys them with the dashboard's site (infra/constructs/dashboard-site.ts), so each error's docUrl opens its entry
 * of errors.md wherever the API runs.
 *
 * @example
 * const files = buildDocsSite(); // [{ key: 'index.html', ... }, { key: 'errors.html', ... }, { key: 'assets/docs-1A2B3C4D.css', ... }]
 * buildDocsSite({ sandboxOrigin: 'http://localhost:4100' }); // the same pages, linking to that sandbox
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked, type Tokens } from 'marked';
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from '../checkout/page-headers.ts';
import { writePageFiles, type PageFile } from './page-build.ts';
import { SITE_ICON_PATH } from './site-icon.ts';

/** Where the docs live: the sandbox and the dashboard's CloudFront site both serve them at /docs/. */
export const DOCS_PATH = '/docs';

/**
 * The sandbox's default address, as the docs write it in links and examples (`http://localhost:4010/docs/`, `curl -s
 * localhost:4010/v1/...`). A sandbox on another PORT serves the docs with its own in its place, so what a reader
 * copies or follows reaches the sandbox they run.
 */
export const SANDBOX_DEFAULT_ORIGIN = 'http://localhost:4010';
const DOCS_DIR = fileURLToPath(new URL('../docs/', import.meta.url));

/** The navigation bar, in this order (docs/index.md lists every page); the other pages follow in alphabetical order. */
const NAVIGATION = ['index', 'guide', 'api', 'payments', 'errors', 'webhooks', 'checkout', 'dashboard-guide', 'sdk-and-cli', 'contract'];

const STYLES = `:root{color-scheme:light;font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;background:#fff}
body{margin:0}
header{background:#12263a;color:#fff;padding:.6rem 1rem}
header a{color:#fff}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.4rem 0 0;padding:0;font-size:.92rem}
nav a[aria-current=page]{font-weight:700;text-decoration-thickness:2px}
main{max-width:62rem;margin:0 auto;padding:1rem 1rem 4rem;overflow-wrap:break-word}
h1,h2,h3{line-height:1.25;margin-top:2rem}
a{color:#0b57a3}
code{font:.88em/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f3f5;padding:.1em .3em;border-radius:3px}
pre{background:#f1f3f5;padding:.8rem;overflow-x:auto;border-radius:4px}
pre code{padding:0;background:none}
table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%;margin:1rem 0}
th,td{border:1px solid #c9ced4;padding:.35rem .55rem;text-align:left;vertical-align:top}
th{background:#f1f3f5}
td:first-child{white-space:nowrap}
code{overflow-wrap:anywhere}
tr:has(:target),h2:target,h3:target{background:#fff3bf}
:target{scroll-margin-top:1rem}
`;

interface DocsPage {
  name: string;
  title: string;
  markdown: string;
}

/**
 * GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; a repeated one gets -1, -2.
 *
 * @example
 * headingAnchor('Where `docUrl` points', new Map()) // 'where-docurl-points'
 */
export function headingAnchor(text: string, seen: Map<string, number>): string {
  const base = text
    .replace(/<[^>]*>/g, '')
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

/** A link written between the .md files of the repository, as the address of its page here; others unchanged. */
export function pageHref(href: string): string {
  const match = /^(?:\.\/|\.\.\/docs\/|docs\/)?([a-z0-9-]+)\.md(#.*)?$/i.exec(href);
  if (match) return `${DOCS_PATH}/${match[1] === 'index' ? '' : match[1]}${match[2] ?? ''}`;
  if (/^\.\.\/README\.md(#.*)?$/.test(href)) return `${DOCS_PATH}/`;
  return href;
}

function readPages(dir: string, sandboxOrigin: string): DocsPage[] {
  const pages = readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .map((file) => {
      const markdown = readFileSync(join(dir, file), 'utf8').replaceAll(new URL(SANDBOX_DEFAULT_ORIGIN).host, new URL(sandboxOrigin).host);
      const name = file.slice(0, -'.md'.length);
      return { name, markdown, title: /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '') ?? name };
    });
  const rank = (name: string) => (NAVIGATION.includes(name) ? NAVIGATION.indexOf(name) : NAVIGATION.length);
  return pages.sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

const EXPLICIT_ANCHOR = /^<a id="([^"]+)"><\/a>/;

function renderMarkdown(markdown: string): string {
  const seen = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    walkTokens: (token) => {
      if (token.type === 'link') (token as Tokens.Link).href = pageHref((token as Tokens.Link).href);
    },
    renderer: {
      // A heading that opens with an empty anchor (`### <a id="error-parameter_missing"></a>...`, as errors.md's
      // entries, for GitHub) takes that anchor as its own id: the heading itself is the target a docUrl opens.
      heading({ tokens, depth, text }: Tokens.Heading) {
        const explicit = EXPLICIT_ANCHOR.exec(text)?.[1];
        const id = explicit ?? headingAnchor(text.replace(/`/g, ''), seen);
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens).replace(EXPLICIT_ANCHOR, '')}</h${depth}>\n`;
      },
    },
  });
  // Code blocks and wide tables scroll sideways on a phone: focusable, so the keyboard can scroll them too.
  return marked.parse(markdown, { async: false }).replace(/<(pre|table)>/g, '<$1 tabindex="0">');
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function pageHtml(page: DocsPage, pages: DocsPage[], stylesheet: string): string {
  const href = (name: string) => `${DOCS_PATH}/${name === 'index' ? '' : name}`;
  // The integration pages, in reading order; the index lists every page.
  const links = pages.filter((p) => NAVIGATION.includes(p.name) || p.name === page.name).map((p) => `<li><a href="${href(p.name)}"${p.name === page.name ? ' aria-current="page"' : ''}>${escapeHtml(p.title)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · svc payments docs</title>
<link rel="icon" href="${SITE_ICON_PATH}">
<link rel="stylesheet" href="${stylesheet}">
</head>
<body>
<header><a href="${DOCS_PATH}/">svc payments docs</a>
<nav aria-label="Docs"><ul>${links}</ul></nav></header>
<main>
${renderMarkdown(page.markdown)}</main>
</body>
</html>
`;
}

/**
 * Every page as <name>.html (index.html for docs/index.md) and the stylesheet under assets/, content-hashed.
 * `sandboxOrigin`: the address of the sandbox serving them (default SANDBOX_DEFAULT_ORIGIN, as AWS deploys them).
 */
export function buildDocsSite({ dir = DOCS_DIR, sandboxOrigin = SANDBOX_DEFAULT_ORIGIN }: { dir?: string; sandboxOrigin?: string } = {}): PageFile[] {
  const pages = readPages(dir, sandboxOrigin);
  const css = new TextEncoder().encode(STYLES);
  const cssKey = `assets/docs-${createHash('sha256').update(css).digest('hex').slice(0, 8).toUpperCase()}.css`;
  const stylesheet = { key: cssKey, contents: css, contentType: 'text/css; charset=utf-8', cacheControl: ASSET_CACHE_CONTROL };
  const html = pages.map((page) => ({
    key: `${page.name}.html`,
    contents: new TextEncoder().encode(pageHtml(page, pages, `${DOCS_PATH}/${cssKey}`)),
    contentType: 'text/html; charset=utf-8',
    cacheControl: PAGE_CACHE_CONTROL,
  }));
  return [...html, stylesheet];
}

/** Replaces `outDir` with the rendered site; returns the files written. */
export function writeDocsSite(outDir: string): PageFile[] {
  return writePageFiles(buildDocsSite(), outDir);
}
