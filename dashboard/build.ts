/**
 * Builds the dashboard (infra/page-build.ts, as the checkout is built): one script, one stylesheet, content-hashed,
 * and the page naming them. The sandbox builds it in memory at every start; `npx tsx dashboard/build.ts` writes the
 * files to dashboard/dist/.
 *
 * @example
 * const files = buildDashboard(); // [{ key: 'index.html', ... }, { key: 'assets/main-3FZK2Q.js', ... }, ...]
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPage, writePageFiles, type PageFile } from '../infra/page-build.ts';
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from './page-headers.ts';

const DASHBOARD_DIR = fileURLToPath(new URL('./', import.meta.url));
/** Where the dashboard lives: the sandbox and CloudFront both serve it at /dashboard/. */
export const DASHBOARD_PATH = '/dashboard';

export type DashboardFile = PageFile;

export function buildDashboard(): DashboardFile[] {
  return buildPage({
    sourceDir: DASHBOARD_DIR,
    sitePath: DASHBOARD_PATH,
    name: 'dashboard',
    // <dialog>, navigator.clipboard and Intl's compact notation exist in all of these.
    target: ['chrome98', 'safari15.4', 'firefox98'],
    cacheControl: { page: PAGE_CACHE_CONTROL, asset: ASSET_CACHE_CONTROL },
  });
}

/** Replaces `outDir` with a fresh build; returns the files written. */
export function writeDashboard(outDir: string = join(DASHBOARD_DIR, 'dist')): DashboardFile[] {
  return writePageFiles(buildDashboard(), outDir);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of writeDashboard()) console.log(`${join('dashboard/dist', file.key)}  ${file.contents.byteLength} bytes`);
}
