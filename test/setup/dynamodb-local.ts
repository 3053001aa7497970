import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoLocal, type DynamoLocal } from '../../infra/sandbox/dynamodb-local.ts';
import { freePort } from '../../infra/sandbox/free-port.ts';

export const TEST_TABLE = 'svc-test';

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
