import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { assertJavaAvailable, startDynamoLocal, type DynamoLocal } from '../../infra/sandbox/dynamodb-local.ts';
import { freePort } from '../../infra/sandbox/free-port.ts';
import { assertMotoAvailable } from './harness/moto.ts';
import { ensureOldSdk } from './harness/sdk-layer.ts';
import { synthesize } from './harness/synth.ts';

let assemblyDir: string | undefined;
let dynamo: DynamoLocal | undefined;

/** On a machine busy with other builds DynamoDB Local's JVM can take longer than one start's 30 s to answer. */
async function startDynamoPatiently(): Promise<DynamoLocal> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDynamoLocal({ port: await freePort(), shortLived: true });
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Once per run: the tools are there (or a message says how to install them), the app synthesized, the older SDK installed. */
export async function setup(project: TestProject) {
  assertJavaAvailable();
  assertMotoAvailable();
  ensureOldSdk();
  // AWS_HARNESS_ASSEMBLY: a cdk.out synthesized before (the same `cdk synth`), to iterate on the harness faster.
  const given = process.env.AWS_HARNESS_ASSEMBLY;
  if (!given) assemblyDir = await synthesize();
  project.provide('assemblyDir', given ?? assemblyDir!);
  // One DynamoDB Local for the run; each file deploys its own table into it.
  dynamo = await startDynamoPatiently();
  project.provide('awsDynamoEndpoint', dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
  if (assemblyDir) rmSync(assemblyDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    assemblyDir: string;
    awsDynamoEndpoint: string;
  }
}
