import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LambdaContainer } from '../test/aws/harness/runtime-api.ts';
import { lambdaBuildOptions } from './cold-start.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The reference under the RIC: a handler module that creates the DynamoDB document client at import, and nothing else. */
const BASELINE_SOURCE = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => typeof db.send;
`;
export const RIC_BASELINE_NAME = 'creates the DynamoDB document client only';

export interface RicInitMeasure {
  name: string;
  /** Median Init Duration over the spawns, ms: process start to the runtime's first /next (Lambda's REPORT line). */
  initMs: number;
  initRatio: number;
}

export interface RicInitResult {
  baseline: RicInitMeasure;
  functions: (RicInitMeasure & { routeId: string })[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** One cold start of the bundle under aws-lambda-ric: its Init Duration as the local Runtime API measures it. */
async function initOnce(name: string, file: string): Promise<number> {
  const container = new LambdaContainer({
    name,
    functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
    // Inside the project: the SDK resolves from its node_modules and the layer's packages from the built layer linked
    // beside the bundles (measureColdStarts), as from the runtime's SDK and /opt/nodejs/node_modules in Lambda, so the
    // init includes loading them.
    taskRoot: dirname(file),
    handler: 'index.handler',
    timeoutSeconds: 10,
    memoryMb: 256,
    environment: { AWS_REGION: 'us-east-1' },
  });
  try {
    await container.start();
    return container.initDurationMs!;
  } finally {
    await container.stop();
  }
}

/**
 * Section 3b: each function's Init Duration under aws-lambda-ric (the runtime Lambda's nodejs22.x image runs),
 * against a bundle that only creates the DynamoDB document client, spawned interleaved so noise hits all alike.
 * `bundles` are those measureColdStarts built (bundleDir/<id>/index.mjs).
 */
export async function measureRicInit(bundleDir: string, routeIds: string[], spawns: number): Promise<RicInitResult> {
  const baselineFile = join(bundleDir, 'ric-baseline', 'index.mjs');
  mkdirSync(dirname(baselineFile), { recursive: true });
  await build({ ...lambdaBuildOptions(baselineFile), stdin: { contents: BASELINE_SOURCE, resolveDir: PROJECT_ROOT, loader: 'js' } });
  const targets = [{ name: RIC_BASELINE_NAME, file: baselineFile }, ...routeIds.map((id) => ({ name: id, file: join(bundleDir, id, 'index.mjs') }))];
  const times = targets.map(() => [] as number[]);
  for (let i = 0; i < spawns; i++) for (const [j, t] of targets.entries()) times[j]!.push(await initOnce(t.name, t.file));
  const [baseline, ...functions] = targets.map((t, j) => ({ name: t.name, initMs: median(times[j]!) }));
  return {
    baseline: { ...baseline!, initRatio: 1 },
    functions: functions.map((f) => ({ ...f, routeId: f.name, initRatio: f.initMs / baseline!.initMs })),
  };
}
