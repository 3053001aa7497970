/**
 * Builds the checkout page: one script and one stylesheet (esbuild, minified, content-hashed names) and the page
 * that names them. In memory, so the sandbox serves a fresh build at every start without racing other processes
 * over a shared folder; `npm run build:checkout` writes the same files to checkout/dist/ for the CDK deployment.
 *
 * @example
 * const files = buildCheckout(); // [{ key: 'index.html', ... }, { key: 'assets/main-3FZK2Q.js', ... }, ...]
 * writeCheckout('checkout/dist');
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage, writePageFiles, type PageFile } from '../infra/page-build.ts';
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from './page-headers.ts';

const CHECKOUT_DIR = fileURLToPath(new URL('./', import.meta.url));
const CHECKOUT_DIST = join(CHECKOUT_DIR, 'dist');
/** Where the page lives: the sandbox and CloudFront both serve it at /checkout. */
export const CHECKOUT_PATH = '/checkout';

/** A file of the page, keyed relative to the site's /checkout/ prefix: index.html or assets/<name>-<hash>.<ext>. */
export type CheckoutFile = PageFile;

export function buildCheckout(): CheckoutFile[] {
  return buildPage({
    sourceDir: CHECKOUT_DIR,
    sitePath: CHECKOUT_PATH,
    name: 'checkout',
    // Browsers of the last few years, phones included: crypto.randomUUID and Intl currency formatting exist there.
    target: ['chrome92', 'safari15.4', 'firefox95'],
    cacheControl: { page: PAGE_CACHE_CONTROL, asset: ASSET_CACHE_CONTROL },
  });
}

/** Replaces `outDir` with a fresh build; returns the files written. */
export function writeCheckout(outDir: string = CHECKOUT_DIST): CheckoutFile[] {
  return writePageFiles(buildCheckout(), outDir);
}

// `npm run build:checkout`
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = writeCheckout();
  for (const file of files) console.log(`${join('checkout/dist', file.key)}  ${file.contents.byteLength} bytes`);
}
