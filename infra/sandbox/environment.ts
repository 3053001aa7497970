import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { isLoopback } from '../../shared/http/client-address.ts';

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

/**
 * Records where a started sandbox listens and keeps its data (`npm start` calls it once listening), readable by its
 * owner only. A file left there (by a crashed run, or planted: a link included) is replaced, never written through.
 * The answer removes the record at shutdown, unless another sandbox has written its own since.
 */
export function writeRunningSandbox(dataDir: string, running: RunningSandbox): { remove(): void } {
  const file = runningSandboxFile(dataDir);
  const content = `${JSON.stringify(running, null, 2)}\n`;
  rmSync(file, { force: true });
  writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
  return {
    remove: () => {
      let current: string | undefined;
      try {
        current = readFileSync(file, 'utf8');
      } catch {
        return;
      }
      if (current === content) rmSync(file, { force: true });
    },
  };
}

function readRunningSandbox(dataDir: string): RunningSandbox | null {
  try {
    const running = JSON.parse(readFileSync(runningSandboxFile(dataDir), 'utf8')) as Partial<RunningSandbox>;
    return typeof running.dynamoEndpoint === 'string' && typeof running.tableName === 'string' ? (running as RunningSandbox) : null;
  } catch {
    return null;
  }
}

/** Whether a DynamoDB endpoint is on this machine: localhost or a loopback address, never a name that merely starts like one. */
export function isLoopbackEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return (url.protocol === 'http:' || url.protocol === 'https:') && (host === 'localhost' || (isIP(host) !== 0 && isLoopback(host)));
}

/** Where the admin CLI's sandbox database came from, for the line it prints before acting. */
export type EndpointSource = 'environment' | 'sandbox.json' | 'default';

/**
 * The admin CLI's sandbox: the database and table of the sandbox that runs with this SANDBOX_DIR (it wrote them to
 * sandbox.json), so a sandbox started with DYNAMODB_PORT or TABLE_NAME needs them repeated only for SANDBOX_DIR.
 * A variable given to the command wins; without the file, the same defaults as `npm start`. The file's endpoint must
 * be loopback: a sandbox's DynamoDB Local always is, and a planted file must not send the CLI's reads and writes
 * (merchants, key hashes, sealed credentials) to another machine (docs/security.md, round 4, finding 6).
 *
 * @example
 * adminSandboxEnvironment({ SANDBOX_DIR: '/tmp/sb' }) // { dynamoEndpoint: 'http://127.0.0.1:8999', endpointSource: 'sandbox.json', ... }
 */
export function adminSandboxEnvironment(env: NodeJS.ProcessEnv = process.env): SandboxEnvironment & { endpointSource: EndpointSource } {
  const defaults = sandboxEnvironment(env);
  const explicitEndpoint = env.DYNAMODB_ENDPOINT !== undefined || env.DYNAMODB_PORT !== undefined;
  const running = readRunningSandbox(defaults.dataDir);
  if (!running) return { ...defaults, endpointSource: explicitEndpoint ? 'environment' : 'default' };
  if (explicitEndpoint) return { ...defaults, tableName: env.TABLE_NAME ?? running.tableName, endpointSource: 'environment' };
  if (!isLoopbackEndpoint(running.dynamoEndpoint)) {
    throw new Error(
      `${runningSandboxFile(defaults.dataDir)} names DynamoDB at ${running.dynamoEndpoint}, which is not this machine: a sandbox's DynamoDB Local is always on loopback, so the file is refused. Remove it, or give DYNAMODB_ENDPOINT to the command.`,
    );
  }
  return { ...defaults, dynamoEndpoint: running.dynamoEndpoint, tableName: env.TABLE_NAME ?? running.tableName, endpointSource: 'sandbox.json' };
}
