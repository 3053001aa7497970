import { Logger } from '@aws-lambda-powertools/logger';
import { OffsetClock } from '../../shared/clock.ts';
import { DEFAULT_KEY_CACHE_TTL_MS, DEFAULT_MAX_BODY_BYTES } from '../../shared/config.ts';
import { createDeps, type Deps } from '../../shared/deps.ts';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';
import { ensureTable } from './dynamodb-local.ts';
import { startSandboxServer, type SandboxServer } from './server.ts';

export interface SandboxOptions {
  /** DynamoDB Local endpoint, already running. */
  dynamoEndpoint: string;
  tableName: string;
  port?: number;
  host?: string;
  /** Defaults to the sandbox's own URL: the checkout is served there too. */
  checkoutBaseUrl?: string;
  clock?: OffsetClock;
  keyCacheTtlMs?: number;
  logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
}

export interface Sandbox {
  url: string;
  deps: Deps;
  clock: OffsetClock;
  server: SandboxServer;
  stop(): Promise<void>;
}

/** The API over DynamoDB Local with the sandbox clock; what `npm start` runs and what HTTP tests start. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  await ensureTable(options.dynamoEndpoint, options.tableName);
  const clock = options.clock ?? new OffsetClock();
  const db = createDocumentClient({ tableName: options.tableName, endpoint: options.dynamoEndpoint });
  const config = {
    tableName: options.tableName,
    checkoutBaseUrl: options.checkoutBaseUrl ?? 'pending',
    keyCacheTtlMs: options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  };
  const logger = new Logger({ serviceName: 'svc-payments', logLevel: options.logLevel ?? 'WARN' });
  const deps = createDeps({ config, db, clock, logger });
  const server = await startSandboxServer({ deps, clock, port: options.port, host: options.host });
  // The port is known only once listening; the checkout lives on the same origin.
  config.checkoutBaseUrl = options.checkoutBaseUrl ?? server.url.replace('127.0.0.1', 'localhost');
  return {
    url: server.url,
    deps,
    clock,
    server,
    stop: async () => {
      await server.close();
      db.destroy();
    },
  };
}
