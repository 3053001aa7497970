import { Stack } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime, type ILayerVersion } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { builtinRequireAliases, REQUIRE_BANNER } from './builtin-requires.ts';

const LOCK_FILE = new URL('../../package-lock.json', import.meta.url);
/** Git-ignored (under node_modules): one folder per distinct build, named by its content. */
const LAYER_CACHE = fileURLToPath(new URL('../../node_modules/.cache/powertools-layer/', import.meta.url));
const SCOPE = '@aws-lambda-powertools';

/**
 * What the functions import from the layer instead of bundling it (service-function.ts). The logger and metrics
 * (about 30 KB minified) load at init; the tracer with the X-Ray SDK, semver and cls-hooked (about 120 KB) only on a
 * function's first call outside AWS (shared/observability/outbound-trace.ts). Not in the layer: batch (the workers
 * bundle their locked 2.35.0, there being no 2.36.0 release, with its commons).
 */
export const LAYER_EXTERNALS = [`${SCOPE}/logger`, `${SCOPE}/metrics`, `${SCOPE}/tracer`] as const;

/** Each import path the functions use, by the file of the layer it resolves to (under the scope's folder). */
const LAYER_ENTRIES: Record<string, string> = {
  'logger/index': `${SCOPE}/logger`,
  'logger/middleware': `${SCOPE}/logger/middleware`,
  'metrics/index': `${SCOPE}/metrics`,
  'tracer/index': `${SCOPE}/tracer`,
};

/** The version of each package as package-lock.json installs it at the top of node_modules. */
export function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(LOCK_FILE, 'utf8')) as { packages: Record<string, { version?: string }> };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return version;
}

/** The one Powertools version the layer holds: that of every external in the lock file (they share one commons). */
export function powertoolsLayerVersion(): string {
  const versions = new Set(LAYER_EXTERNALS.map(lockedVersion));
  if (versions.size !== 1) throw new Error(`The Powertools layer holds one version; package-lock.json has ${[...versions].join(', ')} for ${LAYER_EXTERNALS.join(', ')}`);
  return [...versions][0]!;
}

/**
 * The layer's files, `nodejs/node_modules/@aws-lambda-powertools/…` as Lambda mounts them under /opt: the locked
 * logger, metrics and tracer built by esbuild into one ES module per import path and the chunks they share (with
 * source maps), and each package's package.json naming them. Why not AWS's published layer: it ships each package as
 * its 28-odd ES modules, and resolving and linking those took 12 to 17 ms of every function's init; these load as six
 * files (docs/benchmarks.md). It also runs exactly the code the tests ran, built from the lock file.
 *
 * @returns the folder holding `nodejs/`, named by a hash of its content (so concurrent synths never share a half-built one)
 */
export function buildPowertoolsLayer(): string {
  // Its inputs (the lock file's packages) do not change while a process runs: one build serves every stack and caller.
  built ??= buildLayerFolder();
  return built;
}
let built: string | undefined;

function buildLayerFolder(): string {
  const root = join('nodejs', 'node_modules', SCOPE);
  const result = buildSync({
    entryPoints: LAYER_ENTRIES,
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*'],
    alias: builtinRequireAliases(),
    // The X-Ray SDK is CommonJS.
    banner: { js: REQUIRE_BANNER },
    minify: true,
    sourcemap: 'linked',
    sourcesContent: false,
    outdir: join('/layer', root),
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    logLevel: 'warning',
  });
  const files = new Map(result.outputFiles.map((f) => [relative('/layer', f.path), f.contents as Uint8Array]));
  for (const name of LAYER_EXTERNALS) {
    const folder = name.slice(SCOPE.length + 1);
    const exports = Object.fromEntries(
      Object.entries(LAYER_ENTRIES)
        .filter(([, path]) => path === name || path.startsWith(`${name}/`))
        .map(([file, path]) => [`.${path.slice(name.length)}`, `./${file.slice(folder.length + 1)}.mjs`]),
    );
    files.set(join(root, folder, 'package.json'), new TextEncoder().encode(JSON.stringify({ name, version: lockedVersion(name), type: 'module', exports }, null, 2)));
  }
  const hash = createHash('sha256');
  for (const [path, contents] of [...files].sort(([a], [b]) => a.localeCompare(b))) hash.update(path).update(contents);
  const dir = join(LAYER_CACHE, hash.digest('hex').slice(0, 16));
  if (existsSync(dir)) return dir;
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  for (const [path, contents] of files) {
    mkdirSync(dirname(join(partial, path)), { recursive: true });
    writeFileSync(join(partial, path), contents);
  }
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another synth built the same content first.
    if (!existsSync(dir)) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
  return dir;
}

/** The built layer's packages folder (`nodejs/node_modules`), for running bundles outside Lambda as Lambda would. */
export const powertoolsLayerModules = (): string => join(buildPowertoolsLayer(), 'nodejs', 'node_modules');

/**
 * Links the built layer's packages into `<dir>/node_modules`, replacing an earlier link: bundles under `dir` then
 * import them as Lambda's functions do from /opt/nodejs/node_modules.
 */
export function linkPowertoolsLayer(dir: string): void {
  const link = join(dir, 'node_modules', SCOPE);
  rmSync(link, { recursive: true, force: true });
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(join(powertoolsLayerModules(), SCOPE), link);
}

/** The Powertools layer, one per stack, for the Node.js 22 arm64 functions. */
export function powertoolsLayer(scope: Construct): ILayerVersion {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('PowertoolsLayer') as ILayerVersion | undefined;
  if (existing) return existing;
  return new LayerVersion(stack, 'PowertoolsLayer', {
    code: Code.fromAsset(buildPowertoolsLayer()),
    compatibleRuntimes: [Runtime.NODEJS_22_X],
    compatibleArchitectures: [Architecture.ARM_64],
    description: `Powertools for AWS Lambda (TypeScript) ${powertoolsLayerVersion()}: logger, metrics, tracer (built from package-lock.json)`,
  });
}
