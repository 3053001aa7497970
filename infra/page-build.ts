/**
 * Builds a static page of ours (the checkout, the dashboard): one script and one stylesheet (esbuild, minified,
 * content-hashed names) and the page's index.html with their addresses filled in. In memory, so the sandbox serves a
 * fresh build at every start without racing other processes over a shared folder; `writePageFiles` writes the same
 * files for a CDK deployment.
 *
 * @example
 * const files = buildPage({ sourceDir: 'checkout/', sitePath: '/checkout', name: 'checkout' });
 * // [{ key: 'index.html', ... }, { key: 'assets/main-3FZK2Q.js', ... }, { key: 'assets/styles-9XQ2LM.css', ... }]
 */
import { buildSync } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface PageFile {
  /** Relative to the site's prefix: index.html or assets/<name>-<hash>.<ext>. */
  key: string;
  contents: Uint8Array;
  contentType: string;
  cacheControl: string;
}

export interface PageSource {
  /** Holds index.html (with {{script}} and {{styles}}), src/main.ts and src/styles.css. */
  sourceDir: string;
  /** Where the site serves the page, e.g. /checkout: asset addresses start with it. */
  sitePath: string;
  /** For error messages. */
  name: string;
  /** Browsers the bundle must run in (esbuild targets). */
  target: string[];
  cacheControl: { page: string; asset: string };
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export function buildPage({ sourceDir, sitePath, name, target, cacheControl }: PageSource): PageFile[] {
  const result = buildSync({
    entryPoints: { main: join(sourceDir, 'src/main.ts'), styles: join(sourceDir, 'src/styles.css') },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target,
    entryNames: '[name]-[hash]',
    outdir: join(sourceDir, 'dist/assets'),
    write: false,
    logLevel: 'warning',
  });
  const assets = result.outputFiles.map((file) => {
    const fileName = basename(file.path);
    const extension = fileName.slice(fileName.lastIndexOf('.'));
    return { key: `assets/${fileName}`, contents: file.contents, contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream', cacheControl: cacheControl.asset };
  });
  const assetUrl = (extension: string) => {
    const asset = assets.find((a) => a.key.endsWith(extension));
    if (!asset) throw new Error(`The ${name} build produced no ${extension} file.`);
    return `${sitePath}/${asset.key}`;
  };
  const page = readFileSync(join(sourceDir, 'index.html'), 'utf8').replace('{{script}}', assetUrl('.js')).replace('{{styles}}', assetUrl('.css'));
  return [{ key: 'index.html', contents: new TextEncoder().encode(page), contentType: 'text/html; charset=utf-8', cacheControl: cacheControl.page }, ...assets];
}

/** Replaces `outDir` with `files`; returns them. */
export function writePageFiles(files: PageFile[], outDir: string): PageFile[] {
  rmSync(outDir, { recursive: true, force: true });
  for (const file of files) {
    const path = join(outDir, file.key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  return files;
}
