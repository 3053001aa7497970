/**
 * The sandbox's answer to GET /dashboard/ and /dashboard/assets/*: the built dashboard with the same security
 * headers CloudFront adds in AWS. The dashboard routes with the URL's fragment (#/payments), so one page serves all.
 *
 * @example
 * const serve = serveDashboard(buildDashboard());
 * const answer = serve('GET', '/dashboard/'); // the page, or null when the path is not the dashboard's
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { DASHBOARD_PATH, type DashboardFile } from './build.ts';
import { DASHBOARD_SECURITY_HEADERS } from './page-headers.ts';

export function serveDashboard(files: DashboardFile[]): (method: string, pathname: string) => APIGatewayProxyResult | null {
  const byPath = new Map<string, DashboardFile>();
  for (const file of files) byPath.set(file.key === 'index.html' ? `${DASHBOARD_PATH}/` : `${DASHBOARD_PATH}/${file.key}`, file);
  return (method, pathname) => {
    if (method !== 'GET' && method !== 'HEAD') return null;
    if (pathname === DASHBOARD_PATH) return { statusCode: 308, headers: { Location: `${DASHBOARD_PATH}/`, ...DASHBOARD_SECURITY_HEADERS }, body: '' };
    const file = byPath.get(pathname);
    if (!file) return null;
    return {
      statusCode: 200,
      headers: { 'Content-Type': file.contentType, 'Cache-Control': file.cacheControl, ...DASHBOARD_SECURITY_HEADERS },
      body: method === 'HEAD' ? '' : new TextDecoder().decode(file.contents),
    };
  };
}
