import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';
import { schedulerFromEnvironment } from '../../shared/background/scheduler-from-environment.ts';
import { DEFAULT_KEY_CACHE_TTL_MS, DEFAULT_MAX_BODY_BYTES } from '../../shared/config.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { createDeps, type PartsFactory } from '../../shared/deps.ts';
import type { FunctionNeed } from '../../shared/function-needs.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { routes } from '../../shared/routes.ts';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';
import { webhookHttpFromEnvironment } from '../../shared/webhooks/oauth-tokens.ts';
import { workers, type WorkerDefinition } from '../../shared/workers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every Lambda-side factory of an optional part, by a readable name. */
const FACTORIES = new Map<PartsFactory, string>([
  [cryptoFromEnvironment, 'crypto'],
  [gatewaysFromEnvironment, 'gateways'],
  [queuesFromEnvironment, 'queues'],
  [schedulerFromEnvironment, 'scheduler'],
  [webhookHttpFromEnvironment, 'webhookHttp'],
  [userDirectoryFromEnvironment, 'userDirectory'],
  [userTokensFromEnvironment, 'userTokens'],
]);

/** The factory each manifest need calls for: the stack grants the need, the factory uses it. */
const FACTORY_OF_NEED: Record<FunctionNeed, string> = { secrets: 'crypto', cardNumbers: 'crypto', fingerprints: 'crypto', gateways: 'gateways', userPool: 'userDirectory' };
const NEED_FACTORIES = new Set(Object.values(FACTORY_OF_NEED));

async function wiringOf(entry: string): Promise<string[]> {
  const module = (await import(/* @vite-ignore */ pathToFileURL(join(ROOT, entry)).href)) as { parts?: readonly PartsFactory[] };
  expect(module.parts, `${entry} exports the parts it wires`).toBeDefined();
  return module.parts!.map((factory) => FACTORIES.get(factory) ?? `an unknown factory (${factory.name})`).sort();
}

const expectedFromNeeds = (needs: readonly FunctionNeed[] = []) => [...new Set(needs.map((need) => FACTORY_OF_NEED[need]))].sort();

describe('Lambda wiring against the manifests', () => {
  it.each(Object.entries(routes))('route %s wires exactly the parts its needs grant', async (_id, route) => {
    const wired = await wiringOf(route.entry);
    expect(wired.filter((name) => NEED_FACTORIES.has(name))).toEqual(expectedFromNeeds('needs' in route ? route.needs : []));
    // A route a dashboard user may call verifies their token; no other bundle holds the verifier.
    expect(wired.includes('userTokens')).toBe('dashboard' in route);
    expect(wired.filter((name) => name.startsWith('an unknown'))).toEqual([]);
  });

  it.each(Object.entries(workers))('worker %s wires exactly the parts its needs and queues grant', async (_id, worker: WorkerDefinition) => {
    const wired = await wiringOf(worker.entry);
    expect(wired.filter((name) => NEED_FACTORIES.has(name))).toEqual(expectedFromNeeds(worker.needs));
    // The stack gives a worker the URLs of the queues it sends to and of its trigger queue (to delay a retry).
    expect(wired.includes('queues')).toBe(worker.sendsTo.length > 0 || worker.trigger.kind === 'queue');
    expect(wired.filter((name) => name.startsWith('an unknown'))).toEqual([]);
  });
});

describe('a part the function did not wire', () => {
  const db = createDocumentClient({ tableName: 'unused', endpoint: 'http://127.0.0.1:9' });
  afterAll(() => db.destroy());
  const config = { tableName: 'unused', checkoutBaseUrl: 'https://checkout.example.com', keyCacheTtlMs: DEFAULT_KEY_CACHE_TTL_MS, maxBodyBytes: DEFAULT_MAX_BODY_BYTES };

  it('throws on use, naming the part', () => {
    const deps = createDeps({ config, db, parts: [gatewaysFromEnvironment] });
    expect(() => deps.secretBox.encrypt('x', { merchantId: 'mer_1', purpose: 'bank_credentials' })).toThrow(/secretBox is not wired/);
    expect(() => deps.queues.sessionExpiry.send({})).toThrow(/queues is not wired/);
    expect(() => deps.httpPost('https://example.com', { headers: {}, body: '' })).toThrow(/httpPost is not wired/);
  });

  it('leaves the wired parts and the core alone', () => {
    const deps = createDeps({ config, db, parts: [gatewaysFromEnvironment] });
    expect(typeof deps.gateways).toBe('function');
    expect(deps.config).toBe(config);
    // Spreading Deps (as the handler definers do to scope the logger) must not touch the stand-ins.
    expect(() => ({ ...deps })).not.toThrow();
  });
});
