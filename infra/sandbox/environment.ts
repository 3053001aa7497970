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
  /** Base of each error's docUrl (DOCS_BASE_URL); unset: README.md. */
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
