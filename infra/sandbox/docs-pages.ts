/**
 * The sandbox's docs at /docs: docs/*.md rendered at start (infra/docs-site.ts) and served from memory, /docs/<page>
 * for each file, so an error's docUrl (<sandbox>/docs/errors#error-<code>) opens its entry offline.
 * The interactive OpenAPI reference beside them is api-reference.ts, at /docs/openapi/.
 *
 * @example
 * const serve = serveDocs(buildDocsSite());
 * serve('GET', '/docs/errors'); // the errors page, or null when the path is not a page of the docs
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { DOCS_PATH } from '../docs-site.ts';
import type { PageFile } from '../page-build.ts';

/** Our own stylesheet only: the pages run no script. */
const HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function serveDocs(files: PageFile[]): (method: string, pathname: string) => APIGatewayProxyResult | null {
  const byPath = new Map(files.map((file) => [`${DOCS_PATH}/${file.key === 'index.html' ? '' : file.key.replace(/\.html$/, '')}`, file]));
  return (method, pathname): APIGatewayProxyResult | null => {
    if (method !== 'GET' && method !== 'HEAD') return null;
    if (pathname === DOCS_PATH) return { statusCode: 308, headers: { Location: `${DOCS_PATH}/` }, body: '' };
    const file = byPath.get(pathname);
    if (!file) return null;
    const body = method === 'HEAD' ? '' : Buffer.from(file.contents).toString('utf8');
    return { statusCode: 200, headers: { 'Content-Type': file.contentType, 'Cache-Control': 'no-cache', ...HEADERS }, body };
  };
}
