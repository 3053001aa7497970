/**
 * Sections 3 and 3b of `npm run bench` alone, without the sandbox and the load runs: each function's bundle size,
 * load time and Init Duration under aws-lambda-ric, against the bare DynamoDB client. A minute or two.
 *
 * @example
 * npx tsx bench/cold-start-only.ts                 # BENCH_COLD_START_SPAWNS=9 for steadier medians
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSettings } from './bench-settings.ts';
import { measureColdStarts } from './cold-start.ts';
import { formatColdStart } from './report.ts';
import { measureRicInit } from './ric-init.ts';

const BUNDLES_DIR = fileURLToPath(new URL('./results/bundles/', import.meta.url));
const { coldStartSpawns } = benchSettings();
const coldStart = await measureColdStarts(BUNDLES_DIR, coldStartSpawns);
const ricInit = await measureRicInit(join(BUNDLES_DIR), coldStart.functions.map((f) => f.routeId), coldStartSpawns);
console.log(formatColdStart(coldStart, ricInit).join('\n'));
