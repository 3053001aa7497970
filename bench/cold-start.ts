import { build, type BuildOptions, type Metafile } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { linkPowertoolsLayer } from '../infra/constructs/powertools-layer.ts';
import { buildFunctionBundles, LAMBDA_BUILD_OPTIONS } from '../infra/function-bundles.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** One function's bundle, built as NodejsFunction builds it: bench/ric-init.ts builds its baseline the same way. */
export const lambdaBuildOptions = (outfile: string): BuildOptions => ({ ...LAMBDA_BUILD_OPTIONS, outfile });

/** The reference: a bundle of nothing but the DynamoDB document client, built the same way (so the SDK loads from node_modules). */
const BASELINE_SOURCE = "export { DynamoDBClient } from '@aws-sdk/client-dynamodb'; export { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';";
const BASELINE_NAME = 'DynamoDB document client only';

/**
 * Imports the module in a fresh process and prints the CPU time the import took (Node's own boot excluded). CPU, not
 * wall time: on this shared machine wall time mostly measures the neighbours (the same bundle ranged 140 to 370 ms),
 * while the import is CPU-bound work (parsing, evaluating; the files are cached), which is what a Lambda init pays.
 */
const LOAD_PROBE =
  'const c = process.cpuUsage(); await import(process.argv[1]); const u = process.cpuUsage(c); process.stdout.write(String((u.user + u.system) / 1000));';

export interface BundleMeasure {
  name: string;
  bytes: number;
  /** Median CPU time of the import over the spawns, ms. */
  loadMs: number;
  /** The packages that weigh most in the bundle, bytes of output. */
  heaviest: { source: string; bytes: number }[];
}

export interface ColdStartResult {
  baseline: BundleMeasure;
  /** Every function of the stack: `routeId` is the route's id, or the worker's for a background worker. */
  functions: (BundleMeasure & { routeId: string; loadRatio: number })[];
}

type Inputs = Metafile['outputs'][string]['inputs'];

function heaviestSources(inputs: Inputs, top = 5): { source: string; bytes: number }[] {
  const bySource = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? '(project code)';
    bySource.set(pkg, (bySource.get(pkg) ?? 0) + bytesInOutput);
  }
  return [...bySource].sort((a, b) => b[1] - a[1]).slice(0, top).map(([source, bytes]) => ({ source, bytes }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function loadOnce(file: string): number {
  // process.execPath: the project's Node.js 22, the one `npm run bench` runs on.
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', LOAD_PROBE, pathToFileURL(file).href], {
    encoding: 'utf8',
    // Set by the Lambda runtime, so code that behaves otherwise in Lambda (shared/observability/outbound-trace.ts) does as there.
    env: { PATH: process.env.PATH ?? '', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' },
  });
  if (child.status !== 0) throw new Error(`Loading ${file} failed:\n${child.stderr}`);
  return Number(child.stdout);
}

/** Bundles every function of the route and worker manifests and the baseline, then times their loads, interleaved so noise hits all alike. */
export async function measureColdStarts(outDir: string, spawns: number): Promise<ColdStartResult> {
  mkdirSync(outDir, { recursive: true });
  // The layer's packages as the stack ships them, found before the project's node_modules; the SDK still comes from
  // the project's, as from the runtime's.
  linkPowertoolsLayer(outDir);
  const targets: { name: string; routeId?: string; file: string; inputs: Inputs }[] = [];

  const baselineFile = join(outDir, 'baseline', 'index.mjs');
  const baselineBuild = await build({
    ...lambdaBuildOptions(baselineFile),
    stdin: { contents: BASELINE_SOURCE, resolveDir: PROJECT_ROOT, loader: 'js' },
  });
  targets.push({ name: BASELINE_NAME, file: baselineFile, inputs: baselineBuild.metafile!.outputs[relative(process.cwd(), baselineFile)]!.inputs });

  for (const bundle of await buildFunctionBundles(outDir)) targets.push({ name: bundle.entry, routeId: bundle.id, file: bundle.file, inputs: bundle.inputs });

  const times = targets.map(() => [] as number[]);
  for (let i = 0; i < spawns; i++) targets.forEach((t, j) => times[j]!.push(loadOnce(t.file)));

  const measures = targets.map((t, j) => ({
    name: t.name,
    routeId: t.routeId,
    bytes: statSync(t.file).size,
    loadMs: median(times[j]!),
    heaviest: heaviestSources(t.inputs),
  }));
  const [baseline, ...functions] = measures;
  return {
    baseline: baseline!,
    functions: functions.map((f) => ({ ...f, routeId: f.routeId!, loadRatio: f.loadMs / baseline!.loadMs })),
  };
}
