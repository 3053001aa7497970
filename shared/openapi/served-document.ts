import { readFile } from 'node:fs/promises';

/** The document's file beside a Lambda bundle, written at bundle time by write-openapi-json.ts. */
export const OPENAPI_FILE = 'openapi.json';

/**
 * The document GET /v1/openapi.json serves. In a Lambda bundle, import.meta.url is the bundle's, and the document is
 * the file beside it, written at bundle time (infra/constructs/api.ts): it is static, and building it in the
 * function would bundle every handler (778 KB, twice the load time). Run from source (the sandbox, tests), there is
 * no such file, and it is built from the schemas, the one source of both.
 */
export async function loadServedDocument(): Promise<unknown> {
  try {
    return JSON.parse(await readFile(new URL(OPENAPI_FILE, import.meta.url), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // A computed specifier, which esbuild leaves to the runtime: the bundle holds no handler.
  const builder = new URL('./openapi-document.ts', import.meta.url).href;
  const { servedOpenApiDocument } = (await import(/* @vite-ignore */ builder)) as typeof import('./openapi-document.ts');
  return servedOpenApiDocument();
}
