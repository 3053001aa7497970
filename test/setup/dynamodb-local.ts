import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../../infra/sandbox/dynamodb-local.ts';
import { freePort } from '../../infra/sandbox/free-port.ts';

/** The prefix of the run's tables: one per test worker (`svc-test-<VITEST_POOL_ID>`, test/support/dynamo.ts). */
export const TEST_TABLE = 'svc-test';

let dynamo: DynamoLocal | undefined;
let runTmpDir: string | undefined;

/**
 * One real DynamoDB Local (in memory) for the whole run, with one table per test worker. Every test file makes its own
 * merchants, so none collide; the table per worker is for the stream: each sandbox's reader reads its table's whole
 * stream, and on one shared table every reader read every worker's writes.
 * Every temporary folder of the run (key files, cdk.out, Chromium profiles) lands in one folder, removed at the end:
 * the test workers start after this and inherit TMPDIR, which os.tmpdir() reads on each call.
 */
export async function setup(project: TestProject) {
  runTmpDir = mkdtempSync(join(tmpdir(), 'svc-test-run-'));
  process.env.TMPDIR = runTmpDir;
  dynamo = await startDynamoLocal({ port: await freePort(), shortLived: true });
  const { endpoint } = dynamo;
  const poolIds = Array.from({ length: project.globalConfig.maxWorkers }, (_, i) => i + 1);
  await Promise.all(poolIds.map((poolId) => ensureTable(endpoint, `${TEST_TABLE}-${poolId}`)));
  project.provide('dynamoEndpoint', endpoint);
  project.provide('tableName', TEST_TABLE);
}

export async function teardown() {
  await dynamo?.stop();
  if (runTmpDir) rmSync(runTmpDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
  }
}
