import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The sandbox's settings, from the environment with documented defaults. The admin CLI reads the same ones, so
 * run beside `npm start` with the same environment it acts on the sandbox's data.
 */
export interface SandboxEnvironment {
  port: number;
  host: string;
  dynamoPort: number;
  dynamoEndpoint: string;
  tableName: string;
  dataDir: string;
  /** Local key files of the SecretBox and the Fingerprinter, shared by the sandbox and the admin CLI. */
  keyDir: string;
  /** Base of each error's docUrl (DOCS_BASE_URL); unset: the sandbox's own errors page, <url>/docs/errors. */
  docsBaseUrl: string | undefined;
}

export function sandboxEnvironment(env: NodeJS.ProcessEnv = process.env): SandboxEnvironment {
  const dynamoPort = Number(env.DYNAMODB_PORT ?? 8642);
  const dataDir = env.SANDBOX_DIR ?? '.sandbox';
  return {
    port: Number(env.PORT ?? 4010),
    host: env.HOST ?? '127.0.0.1',
    dynamoPort,
    dynamoEndpoint: env.DYNAMODB_ENDPOINT ?? `http://127.0.0.1:${dynamoPort}`,
    tableName: env.TABLE_NAME ?? 'svc-sandbox',
    dataDir,
    keyDir: join(dataDir, 'keys'),
    docsBaseUrl: env.DOCS_BASE_URL || undefined,
  };
}

/** What a running sandbox writes to <SANDBOX_DIR>/sandbox.json, so the admin CLI finds its database. */
export interface RunningSandbox {
  url: string;
  dynamoEndpoint: string;
  tableName: string;
}

const runningSandboxFile = (dataDir: string) => join(dataDir, 'sandbox.json');

/** Records where a started sandbox listens and keeps its data (`npm start` calls it once listening). */
export function writeRunningSandbox(dataDir: string, running: RunningSandbox): void {
  writeFileSync(runningSandboxFile(dataDir), `${JSON.stringify(running, null, 2)}\n`);
}

function readRunningSandbox(dataDir: string): RunningSandbox | null {
  try {
    const running = JSON.parse(readFileSync(runningSandboxFile(dataDir), 'utf8')) as Partial<RunningSandbox>;
    return typeof running.dynamoEndpoint === 'string' && typeof running.tableName === 'string' ? (running as RunningSandbox) : null;
  } catch {
    return null;
  }
}

/**
 * The admin CLI's sandbox: the database and table of the sandbox that runs with this SANDBOX_DIR (it wrote them to
 * sandbox.json), so a sandbox started with DYNAMODB_PORT or TABLE_NAME needs them repeated only for SANDBOX_DIR.
 * A variable given to the command wins; without the file, the same defaults as `npm start`.
 *
 * @example
 * adminSandboxEnvironment({ SANDBOX_DIR: '/tmp/sb' }) // { dynamoEndpoint: 'http://127.0.0.1:8999', tableName: ..., ... }
 */
export function adminSandboxEnvironment(env: NodeJS.ProcessEnv = process.env): SandboxEnvironment {
  const defaults = sandboxEnvironment(env);
  const running = readRunningSandbox(defaults.dataDir);
  if (!running) return defaults;
  const explicitEndpoint = env.DYNAMODB_ENDPOINT !== undefined || env.DYNAMODB_PORT !== undefined;
  return {
    ...defaults,
    dynamoEndpoint: explicitEndpoint ? defaults.dynamoEndpoint : running.dynamoEndpoint,
    tableName: env.TABLE_NAME ?? running.tableName,
  };
}
