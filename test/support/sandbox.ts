import { OffsetClock } from '../../shared/clock.ts';
import { createMerchant, type MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';
import { startSandbox, type Sandbox } from '../../infra/sandbox/sandbox.ts';
import { testConnection } from './dynamo.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * scrypt's work factor for the test sandboxes' dashboard passwords: 1024 instead of the sandbox's 16384. The tests
 * check what the directory does with a password (refused, locked, changed), not how costly a guess is; at 16384 the
 * hashes were half of test/dashboard's CPU (docs/benchmarks.md).
 */
const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 };

/** Local keys of this test process: never the developer's .sandbox/keys. */
const TEST_KEY_DIR = mkdtempSync(join(tmpdir(), 'svc-test-keys-'));

export interface TestSandbox extends Sandbox {
  /** A new provisioned merchant with test mode on, and its six keys. */
  newMerchant(options?: { provisioned?: boolean; changes?: Partial<Merchant> }): Promise<{ merchant: Merchant; keys: MerchantKeys }>;
  /** A JSON request against the sandbox. */
  request(method: string, path: string, options?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  /** The time of the users' authenticator apps (testAuthenticator): moved to the next TOTP step instead of waiting for it. */
  authenticatorClock: OffsetClock;
  /** Moves the sandbox clock forward by that many seconds. */
  advance(seconds: number): void;
  /** The merchants made by newMerchant: the only ones this sandbox's background workers handle. */
  ownedMerchants: Set<string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** The real sandbox (same handlers, same event shape) on a free port over the run's DynamoDB Local. */
export async function startTestSandbox(
  options: {
    keyCacheTtlMs?: number;
    /** Deadline of one call to the sandbox bank (the timeout card waits it out). */
    gatewayTimeoutMs?: number;
    /** To start again after stop(): the same clock and the same merchants, as a restarted sandbox would have. */
    restartOf?: TestSandbox;
    /** Where the local keys live; default one folder per test process. The admin CLI finds them at <SANDBOX_DIR>/keys. */
    keyDir?: string;
    /** Where the GATEWAY_*_URL variables are read (default process.env): one set sends that gateway's traffic there. */
    gatewayEnv?: NodeJS.ProcessEnv;
    /**
     * A table of the sandbox's own instead of its worker's: for a file that snapshots its merchants' items before and
     * after each case, since a scan of the worker's table grows with everything its earlier files have written.
     */
    tableName?: string;
    /** Default SILENT; a leak scan turns logging on to read every line. */
    logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
  } = {},
): Promise<TestSandbox> {
  const { endpoint, tableName: workerTable } = testConnection();
  const tableName = options.tableName ?? options.restartOf?.deps.config.tableName ?? workerTable;
  const clock = options.restartOf?.clock ?? new OffsetClock();
  const authenticatorClock = options.restartOf?.authenticatorClock ?? new OffsetClock();
  // The files of one test worker share its table (and a restart shares it with the sandbox before): each sandbox's
  // background workers handle only the merchants it created.
  const owned = options.restartOf?.ownedMerchants ?? new Set<string>();
  const sandbox = await startSandbox({
    dynamoEndpoint: endpoint,
    tableName,
    clock,
    authenticatorClock,
    passwordCost: TEST_PASSWORD_COST,
    keyCacheTtlMs: options.keyCacheTtlMs,
    keyDir: options.keyDir ?? TEST_KEY_DIR,
    gatewayTimeoutMs: options.gatewayTimeoutMs,
    gatewayEnv: options.gatewayEnv,
    logLevel: options.logLevel ?? 'SILENT',
    ownsMerchant: (merchantId) => owned.has(merchantId),
    streamReaderId: options.restartOf?.streamReaderId,
  });
  return {
    ...sandbox,
    ownedMerchants: owned,
    authenticatorClock,
    async newMerchant({ provisioned = true, changes } = {}) {
      const created = await createMerchant(sandbox.deps, { name: 'Test merchant', now: new Date(clock.now()), provisioned });
      owned.add(created.merchant.id);
      const merchant = changes ? await sandbox.deps.merchants.update(created.merchant.id, changes) : created.merchant;
      return { merchant, keys: created.keys };
    },
    async request(method, path, { key, body, rawBody, headers = {} } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (key) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
      if (body !== undefined || rawBody !== undefined) {
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
        init.body = rawBody ?? JSON.stringify(body);
      }
      const res = await fetch(`${sandbox.url}${path}`, init);
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    advance(seconds) {
      clock.advance(seconds * 1000);
    },
  };
}
