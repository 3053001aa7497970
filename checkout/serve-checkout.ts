/**
 * The sandbox's answer to GET /checkout and /checkout/assets/*: the built page with the same security headers
 * CloudFront adds in AWS.
 *
 * @example
 * const serve = serveCheckout(buildCheckout());
 * const answer = serve('GET', '/checkout'); // the page, or null when the path is not the checkout's
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { CHECKOUT_PATH, type CheckoutFile } from './build.ts';
import { CHECKOUT_SECURITY_HEADERS } from './page-headers.ts';

export function serveCheckout(files: CheckoutFile[]): (method: string, pathname: string) => APIGatewayProxyResult | null {
  const byPath = new Map<string, CheckoutFile>();
  for (const file of files) byPath.set(file.key === 'index.html' ? CHECKOUT_PATH : `${CHECKOUT_PATH}/${file.key}`, file);
  return (method, pathname) => {
    if (method !== 'GET' && method !== 'HEAD') return null;
    const file = byPath.get(pathname === `${CHECKOUT_PATH}/` ? CHECKOUT_PATH : pathname);
    if (!file) return null;
    return {
      statusCode: 200,
      headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl, ...CHECKOUT_SECURITY_HEADERS },
      body: method === 'HEAD' ? '' : new TextDecoder().decode(file.contents),
    };
  };
}
