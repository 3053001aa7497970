import type { TestProject } from 'vitest/node';
import { createServer } from 'node:net';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../../infra/sandbox/dynamodb-local.ts';

export const TEST_TABLE = 'svc-test';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let dynamo: DynamoLocal | undefined;

/** One real DynamoDB Local (in memory) for the whole run; every test file makes its own merchants, so none collide. */
export async function setup(project: TestProject) {
  dynamo = await startDynamoLocal({ port: await freePort() });
  await ensureTable(dynamo.endpoint, TEST_TABLE);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('tableName', TEST_TABLE);
}

export async function teardown() {
  await dynamo?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
  }
}
