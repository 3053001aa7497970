import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { routes } from '../shared/routes.ts';
import { workers } from '../shared/workers.ts';
import { builtinRequireAliases } from './constructs/builtin-requires.ts';
import { BUNDLING } from './constructs/service-function.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * esbuild options equal to what NodejsFunction passes for infra/constructs/service-function.ts: its BUNDLING options,
 * the target of its runtime (Node.js 22), its externals (the runtime's SDK, the Powertools layer's packages), its
 * aliases (built-ins through `require`), ES module output. Without `outfile`: one build gives one bundle per entry
 * point, each as a build of its own would.
 */
export const LAMBDA_BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: BUNDLING.format === OutputFormat.CJS ? 'cjs' : 'esm',
  mainFields: BUNDLING.mainFields,
  banner: BUNDLING.banner ? { js: BUNDLING.banner } : undefined,
  minify: BUNDLING.minify,
  // linked: the bundle ends with its sourceMappingURL comment, as esbuild's --sourcemap under NodejsFunction writes it.
  sourcemap: BUNDLING.sourceMap ? 'linked' : false,
  sourcesContent: BUNDLING.sourcesContent,
  external: BUNDLING.externalModules,
  alias: builtinRequireAliases(),
  metafile: true,
  logLevel: 'warning',
};

/** Every Lambda function of the stack: the manifest's routes and background workers, by id. */
export const functionEntries = (): { id: string; entry: string }[] =>
  [...Object.entries(routes), ...Object.entries(workers)].map(([id, { entry }]) => ({ id, entry }));

export interface FunctionBundle {
  id: string;
  entry: string;
  /** `<outDir>/<id>/index.mjs`, the file Lambda loads. */
  file: string;
  bytes: number;
  /** Bytes of output per input file, as esbuild's metafile reports them. */
  inputs: Metafile['outputs'][string]['inputs'];
}

/**
 * Bundles every function in one esbuild run (many entry points, no code splitting: each output is what its own
 * build would be), into `<outDir>/<id>/index.mjs`.
 *
 * @example
 * const bundles = await buildFunctionBundles('/tmp/bundles'); // [{ id: 'createSession', bytes: 183_000, ... }, ...]
 */
export async function buildFunctionBundles(outDir: string, entries = functionEntries()): Promise<FunctionBundle[]> {
  const result = await build({
    ...LAMBDA_BUILD_OPTIONS,
    entryPoints: Object.fromEntries(entries.map(({ id, entry }) => [`${id}/index`, resolve(PROJECT_ROOT, entry)])),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
  });
  const outputs = result.metafile!.outputs;
  return entries.map(({ id, entry }) => {
    const file = join(outDir, id, 'index.mjs');
    const output = Object.entries(outputs).find(([path]) => resolve(path) === file)?.[1];
    if (!output) throw new Error(`esbuild wrote no bundle for ${id}`);
    return { id, entry, file, bytes: output.bytes, inputs: output.inputs };
  });
}
