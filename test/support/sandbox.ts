import { OffsetClock } from '../../shared/clock.ts';
import { createMerchant, type MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';
import { startSandbox, type Sandbox } from '../../infra/sandbox/sandbox.ts';
import { testConnection } from './dynamo.ts';

export interface TestSandbox extends Sandbox {
  /** A new provisioned merchant with test mode on, and its six keys. */
  newMerchant(options?: { provisioned?: boolean; changes?: Partial<Merchant> }): Promise<{ merchant: Merchant; keys: MerchantKeys }>;
  /** A JSON request against the sandbox. */
  request(method: string, path: string, options?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  /** Moves the sandbox clock forward by that many seconds. */
  advance(seconds: number): void;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** The real sandbox (same handlers, same event shape) on a free port over the run's DynamoDB Local. */
export async function startTestSandbox(options: { keyCacheTtlMs?: number } = {}): Promise<TestSandbox> {
  const { endpoint, tableName } = testConnection();
  const clock = new OffsetClock();
  const sandbox = await startSandbox({ dynamoEndpoint: endpoint, tableName, clock, keyCacheTtlMs: options.keyCacheTtlMs, logLevel: 'SILENT' });
  return {
    ...sandbox,
    async newMerchant({ provisioned = true, changes } = {}) {
      const created = await createMerchant(sandbox.deps, { name: 'Test merchant', now: new Date(clock.now()), provisioned });
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
