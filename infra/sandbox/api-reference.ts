/**
 * The sandbox's interactive API reference at /docs/openapi/: Swagger UI (the swagger-ui-dist package, served from
 * node_modules, so it works offline: no CDN) over the sandbox's own GET /v1/openapi.json, beside the rendered docs
 * at /docs/ (docs-pages.ts).
 *
 * @example
 * const serve = serveApiReference();
 * serve('GET', '/docs/openapi/'); // the page, or null when the path is not the reference's
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const API_REFERENCE_PATH = '/docs/openapi';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc payments API reference</title>
<link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<main id="api-reference"></main>
<script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATH}/init.js"></script>
</body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to a public validator.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#api-reference',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** Swagger UI sets styles inline and shows its icons as data: images; nothing leaves the origin. */
const HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function serveApiReference(): (method: string, pathname: string) => APIGatewayProxyResult | null {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, { contentType: string; body: () => string }>([
    [`${API_REFERENCE_PATH}/`, { contentType: 'text/html; charset=utf-8', body: () => PAGE }],
    [`${API_REFERENCE_PATH}/init.js`, { contentType: 'text/javascript; charset=utf-8', body: () => INIT }],
    [`${API_REFERENCE_PATH}/swagger-ui.css`, { contentType: 'text/css; charset=utf-8', body: () => readFileSync(join(dist, 'swagger-ui.css'), 'utf8') }],
    [`${API_REFERENCE_PATH}/swagger-ui-bundle.js`, { contentType: 'text/javascript; charset=utf-8', body: () => readFileSync(join(dist, 'swagger-ui-bundle.js'), 'utf8') }],
  ]);
  return (method, pathname): APIGatewayProxyResult | null => {
    if (method !== 'GET' && method !== 'HEAD') return null;
    if (pathname === API_REFERENCE_PATH) return { statusCode: 308, headers: { Location: `${API_REFERENCE_PATH}/` }, body: '' };
    const file = files.get(pathname);
    if (!file) return null;
    return { statusCode: 200, headers: { 'Content-Type': file.contentType, 'Cache-Control': 'no-cache', ...HEADERS }, body: method === 'HEAD' ? '' : file.body() };
  };
}
