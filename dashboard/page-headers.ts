/**
 * Response headers of the dashboard and its assets: one definition for the sandbox (serve-dashboard.ts) and
 * CloudFront (infra/constructs/dashboard-site.ts). Cache rules are the checkout's: the page revalidates, assets are
 * content-hashed and immutable.
 */
export { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from '../checkout/page-headers.ts';

/**
 * No inline script or style and no third party: the dashboard talks only to its own origin, where /v1/* is the API.
 * blob: images are the logo preview before upload; data: the inline SVG icons. frame-ancestors 'none': a page that
 * rolls keys and loads bank credentials must not be framed (clickjacking).
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const DASHBOARD_PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** Headers on every dashboard file. HSTS is CloudFront's (HTTPS only); the sandbox serves plain HTTP on localhost. */
export const DASHBOARD_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  // Payment and endpoint references in the page's address stay on this origin.
  'Referrer-Policy': 'same-origin',
  'Permissions-Policy': DASHBOARD_PERMISSIONS_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
