/**
 * The sites' icon (a payment card, 32 px, PNG inside an ICO): /favicon.ico, where browsers ask for it on every page,
 * on the sandbox and at the root of each CloudFront site (static-site.ts); the checkout, dashboard and docs pages
 * link to it.
 *
 * @example
 * serveSiteIcon('GET', '/favicon.ico'); // the icon's bytes, base64; null for any other path
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SITE_ICON_PATH = '/favicon.ico';
/** Holds favicon.ico alone: the folder CloudFront's bucket deployment copies to the site's root. */
export const SITE_ICON_DIR = fileURLToPath(new URL('./site-icon/', import.meta.url));
/** A day: the icon has no hash in its name, so a new one reaches browsers within that. */
export const SITE_ICON_CACHE_CONTROL = 'public, max-age=86400';

let icon: Buffer | undefined;

export function serveSiteIcon(method: string, pathname: string): APIGatewayProxyResult | null {
  if (pathname !== SITE_ICON_PATH || (method !== 'GET' && method !== 'HEAD')) return null;
  icon ??= readFileSync(`${SITE_ICON_DIR}favicon.ico`);
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'image/x-icon', 'Cache-Control': SITE_ICON_CACHE_CONTROL, 'X-Content-Type-Options': 'nosniff' },
    body: method === 'HEAD' ? '' : icon.toString('base64'),
    isBase64Encoded: method !== 'HEAD',
  };
}
