import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal, type DynamoLocal } from '../infra/sandbox/dynamodb-local.ts';
import { freePort } from '../infra/sandbox/free-port.ts';
import { startSandbox, type Sandbox } from '../infra/sandbox/sandbox.ts';
import { createMerchant } from '../shared/admin/merchant-admin.ts';
import { OPERATION_CLASSES } from '../shared/domain/merchant.ts';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { CallCounter } from '../shared/observability/call-counter.ts';
import { countStandIns } from './stand-in-counting.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

/** One request of a benchmark, built afresh for each send. */
export interface BenchRequest {
  method: string;
  path: string;
  /** The API key sent as Bearer; none for the checkout, where the session reference is the credential. */
  key?: string;
  body?: unknown;
  /** Extra headers, e.g. Idempotency-Key. */
  headers?: Record<string, string>;
  /** Sees the answer, e.g. to keep the reference of a created session. */
  onResponse?: (status: number, body: string) => void;
}

/** The HTTP headers of a bench request: its key, its extra headers and, with a body, the JSON content type. */
export function requestHeaders({ key, body, headers }: BenchRequest): Record<string, string> {
  return { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers };
}

export interface BenchMerchant {
  id: string;
  /** Secret test key. */
  key: string;
}

export interface BenchEnvironment {
  sandbox: Sandbox;
  dynamo: DynamoLocal;
  tableName: string;
  /**
   * Counts every AWS SDK call of the sandbox's clients, with DynamoDB's consumed capacity, and the stand-ins' calls
   * as the SQS, Scheduler, KMS and Lambda calls they replace (bench/stand-in-counting.ts): calls made while
   * serving an API request under REQUEST_SCOPE, the in-process workers' calls (stream, queues, scheduler) unscoped.
   */
  counter: CallCounter;
  /**
   * A merchant with unreachable limits. With `webhooks`, it subscribes one endpoint (all events) at the
   * environment's local receiver, so its sessions' events are delivered as a real merchant's are.
   */
  newMerchant(options?: { webhooks?: boolean }): Promise<BenchMerchant>;
  /** Webhook deliveries the local receiver has answered. */
  webhooksReceived(): number;
  /** One request; its onResponse, if any, is called as autocannon would. */
  send(request: BenchRequest): Promise<{ status: number; body: any }>;
  /** Creates sessions through the API, a few at a time, and returns their references. */
  createSessions(merchant: BenchMerchant, count: number, body?: Record<string, unknown>): Promise<string[]>;
  stop(): Promise<void>;
}

/** Sessions live an hour, so none expires by time while the benchmark runs (the round-trip count moves the clock). */
export const BENCH_SESSION_BODY = { amountMinor: 1050, currency: 'VES', description: 'Pedido bench', expiresInMinutes: 60 } as const;

/** No merchant limit the benchmark could reach: it measures the code, not the throttle. */
const UNTHROTTLED = Object.fromEntries(OPERATION_CLASSES.map((c) => [c, { perMinute: 1_000_000_000, perDay: 1_000_000_000 }]));

export const REQUEST_SCOPE = 'request';
const SEED_CONCURRENCY = 8;
const TABLE_NAME = 'svc-bench';

/**
 * Runs each request listener of the sandbox's server inside the counter's request scope. `npm run bench` runs
 * Node.js with --experimental-async-context-frame, so the scope costs no promise hook on every await.
 */
function scopeRequests(server: Server, counter: CallCounter): void {
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  for (const listener of listeners) server.on('request', (req: IncomingMessage, res: ServerResponse) => counter.within(REQUEST_SCOPE, () => listener(req, res)));
}

/**
 * Its own DynamoDB Local (in memory, free port) and its own sandbox (port 0, keys in a temporary directory), so
 * the developer's .sandbox/ data is never touched.
 */
export async function startBenchEnvironment(): Promise<BenchEnvironment> {
  const dynamo = await startDynamoLocal({ port: await freePort() });
  const keyDir = mkdtempSync(join(tmpdir(), 'svc-bench-keys-'));
  const counter = new CallCounter({ measureCapacity: true });
  const sandbox = await startSandbox({
    dynamoEndpoint: dynamo.endpoint,
    tableName: TABLE_NAME,
    keyDir,
    logLevel: 'ERROR',
    instrumentClient: (client) => counter.attach(client),
  });
  scopeRequests(sandbox.server.server, counter);
  // SQS, Scheduler and KMS are in-process stand-ins here, not SDK clients: counted as the AWS calls they replace.
  countStandIns(sandbox, counter);
  const receiver = await startWebhookReceiver('/bench-webhooks');

  const send: BenchEnvironment['send'] = async (request) => {
    const { method, path, body } = request;
    const res = await fetch(`${sandbox.url}${path}`, { method, headers: requestHeaders(request), body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    request.onResponse?.(res.status, text);
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  return {
    sandbox,
    dynamo,
    tableName: TABLE_NAME,
    counter,
    send,
    async newMerchant({ webhooks = false } = {}) {
      const { merchant, keys } = await createMerchant(sandbox.deps, { name: 'Bench merchant', now: new Date(sandbox.clock.now()) });
      await sandbox.deps.merchants.update(merchant.id, { rateLimits: UNTHROTTLED });
      if (webhooks) {
        const endpoint = await send({ method: 'POST', path: '/v1/webhooks/endpoints', key: keys.secretTest, body: { url: receiver.url, description: 'bench receiver' } });
        if (endpoint.status !== 201) throw new Error(`Subscribing the bench receiver answered ${endpoint.status}: ${JSON.stringify(endpoint.body)}`);
      }
      return { id: merchant.id, key: keys.secretTest };
    },
    webhooksReceived: receiver.received,
    async createSessions(merchant, count, body = BENCH_SESSION_BODY) {
      const references: string[] = [];
      let started = 0;
      const worker = async () => {
        while (started < count) {
          started++;
          const res = await send({ method: 'POST', path: '/v1/sessions', key: merchant.key, body });
          if (res.status !== 201) throw new Error(`Seeding a session answered ${res.status}: ${JSON.stringify(res.body)}`);
          references.push(res.body.reference as string);
        }
      };
      await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
      return references;
    },
    async stop() {
      await sandbox.stop();
      await receiver.stop();
      await dynamo.stop();
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
}
