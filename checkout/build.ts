/**
 * Builds the checkout page: one script and one stylesheet (esbuild, minified, content-hashed names) and the page
 * that names them. In memory, so the sandbox serves a fresh build at every start without racing other processes
 * over a shared folder; `npm run build:checkout` writes the same files to checkout/dist/ for the CDK deployment.
 *
 * @example
 * const files = buildCheckout(); // [{ key: 'index.html', ... }, { key: 'assets/main-3FZK2Q.js', ... }, ...]
 * writeCheckout('checkout/dist');
 */
import { buildSync } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from './page-headers.ts';

const CHECKOUT_DIR = fileURLToPath(new URL('./', import.meta.url));
const CHECKOUT_DIST = join(CHECKOUT_DIR, 'dist');
/** Where the page lives: the sandbox and CloudFront both serve it at /checkout. */
export const CHECKOUT_PATH = '/checkout';

export interface CheckoutFile {
  /** Relative to the site's /checkout/ prefix: index.html or assets/<name>-<hash>.<ext>. */
  key: string;
  contents: Uint8Array;
  contentType: string;
  cacheControl: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export function buildCheckout(): CheckoutFile[] {
  const result = buildSync({
    entryPoints: { main: join(CHECKOUT_DIR, 'src/main.ts'), styles: join(CHECKOUT_DIR, 'src/styles.css') },
    bundle: true,
    minify: true,
    format: 'esm',
    // Browsers of the last few years, phones included: crypto.randomUUID and Intl currency formatting exist there.
    target: ['chrome92', 'safari15.4', 'firefox95'],
    entryNames: '[name]-[hash]',
    outdir: join(CHECKOUT_DIR, 'dist/assets'),
    write: false,
    logLevel: 'warning',
  });
  const assets = result.outputFiles.map((file) => {
    const name = basename(file.path);
    const extension = name.slice(name.lastIndexOf('.'));
    return { key: `assets/${name}`, contents: file.contents, contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream', cacheControl: ASSET_CACHE_CONTROL };
  });
  const assetUrl = (extension: string) => {
    const asset = assets.find((a) => a.key.endsWith(extension));
    if (!asset) throw new Error(`The checkout build produced no ${extension} file.`);
    return `${CHECKOUT_PATH}/${asset.key}`;
  };
  const page = readFileSync(join(CHECKOUT_DIR, 'index.html'), 'utf8').replace('{{script}}', assetUrl('.js')).replace('{{styles}}', assetUrl('.css'));
  return [{ key: 'index.html', contents: new TextEncoder().encode(page), contentType: 'text/html; charset=utf-8', cacheControl: PAGE_CACHE_CONTROL }, ...assets];
}

/** Replaces `outDir` with a fresh build; returns the files written. */
export function writeCheckout(outDir: string = CHECKOUT_DIST): CheckoutFile[] {
  const files = buildCheckout();
  rmSync(outDir, { recursive: true, force: true });
  for (const file of files) {
    const path = join(outDir, file.key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  return files;
}

// `npm run build:checkout`
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = writeCheckout();
  for (const file of files) console.log(`${join('checkout/dist', file.key)}  ${file.contents.byteLength} bytes`);
}
