/**
 * Response headers of the checkout page and its assets: one definition for the sandbox (serve-checkout.ts) and
 * CloudFront (infra/constructs/checkout-site.ts), so what the browser tests exercise is what AWS serves.
 */

/**
 * No inline script or style, no third party: the page talks only to its own origin (the checkout API sits on it).
 * frame-ancestors 'none': a card form that can be framed can be clickjacked; merchants link to the page instead.
 */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const CHECKOUT_PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/** Headers on every checkout file. HSTS is CloudFront's (HTTPS only); the sandbox serves plain HTTP on localhost. */
export const CHECKOUT_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CHECKOUT_CSP,
  // The session reference in the page URL is the buyer's credential: it never leaves in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': CHECKOUT_PERMISSIONS_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The page must be revalidated (a new build names new assets); assets carry a content hash and never change. */
export const PAGE_CACHE_CONTROL = 'no-cache';
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
