/**
 * The parts a function gets come from its manifest entry alone (shared/function-needs.ts PartGroupsOf): `deps` is typed
 * by it and the entry module must pass exactly its factories. These cases are checked by the compiler (`npx tsc
 * --noEmit` fails when a @ts-expect-error line compiles); the runtime cases check what createDeps builds.
 */
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import { defineRecordWorker } from '../../shared/background/define-record-worker.ts';
import { defineWorker } from '../../shared/background/define-worker.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';
import { DEFAULT_KEY_CACHE_TTL_MS, DEFAULT_MAX_BODY_BYTES } from '../../shared/config.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { createDeps, type DepsOf } from '../../shared/deps.ts';
import type { PartGroupsOf } from '../../shared/function-needs.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import type { CheckoutAuth, UserAuth } from '../../shared/http/handler-types.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';
import type { workers } from '../../shared/workers.ts';

const answer = async () => ({ statusCode: 200, body: {} });

describe('the parts of a manifest entry (type checks)', () => {
  it('derives them from needs, dashboard and queues', () => {
    expectTypeOf<PartGroupsOf<typeof manifest.createSession>>().toEqualTypeOf<never>();
    expectTypeOf<PartGroupsOf<typeof manifest.getSession>>().toEqualTypeOf<'userTokens'>();
    expectTypeOf<PartGroupsOf<typeof manifest.createCheckoutCharge>>().toEqualTypeOf<'crypto' | 'gateways'>();
    expectTypeOf<PartGroupsOf<typeof manifest.dashboardSignIn>>().toEqualTypeOf<'userDirectory'>();
    expectTypeOf<PartGroupsOf<typeof manifest.retryWebhookDelivery>>().toEqualTypeOf<'queues' | 'userTokens'>();
    expectTypeOf<PartGroupsOf<(typeof workers)['sendWebhooks']>>().toEqualTypeOf<'crypto' | 'webhookHttp' | 'queues'>();
    expectTypeOf<PartGroupsOf<(typeof workers)['planSessionExpiry']>>().toEqualTypeOf<'scheduler' | 'queues'>();
    expectTypeOf<PartGroupsOf<(typeof workers)['notifyCardVerifications']>>().toEqualTypeOf<never>();
  });

  it('refuses a handler that uses a part its entry does not declare, and a wiring that differs from the entry', () => {
    defineApiHandler(manifest.createSession, {}, async (_req, deps) => {
      // @ts-expect-error createSession declares no gateways
      deps.gateways('svc_bank');
      return answer();
    });
    // @ts-expect-error createWebhookEndpoint needs secrets: its crypto factory is missing
    defineApiHandler(manifest.createWebhookEndpoint, {}, answer, { userTokens: userTokensFromEnvironment });
    // @ts-expect-error getSession declares no gateways: a factory it does not need is refused
    defineApiHandler(manifest.getSession, {}, answer, { userTokens: userTokensFromEnvironment, gateways: gatewaysFromEnvironment });
    // @ts-expect-error dispatchWebhooks sends to a queue: its queues factory is missing
    defineRecordWorker('dispatchWebhooks', 'DynamoDBStreams' as never, async () => {});
    defineWorker('handOverSessionExpiry', async (_event: unknown, deps) => {
      expectTypeOf(deps).toEqualTypeOf<DepsOf<(typeof workers)['handOverSessionExpiry']>>();
      // @ts-expect-error the hand-over has no scheduler
      await deps.scheduler.cancel('x');
    }, { queues: queuesFromEnvironment });
    defineApiHandler(manifest.getCheckoutSession, {}, async (_req, deps) => {
      expectTypeOf(deps.secretBox).not.toBeNever();
      return answer();
    }, { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment });
  });

  it('types auth by the route: none on a public route, the session on a checkout route, the user on a dashboard route', () => {
    defineApiHandler(manifest.getMerchantLogo, {}, async (req) => {
      // @ts-expect-error a public route has no caller
      void req.auth;
      return answer();
    });
    defineApiHandler(manifest.getCheckoutSession, {}, async (req) => {
      expectTypeOf(req.auth).toEqualTypeOf<CheckoutAuth>();
      return answer();
    }, { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment });
    defineApiHandler(manifest.getDashboardMe, {}, async (req) => {
      expectTypeOf(req.auth).toEqualTypeOf<UserAuth>();
      return answer();
    }, { userTokens: userTokensFromEnvironment });
  });
});

describe('createDeps', () => {
  const db = createDocumentClient({ tableName: 'unused', endpoint: 'http://127.0.0.1:9' });
  afterAll(() => db.destroy());
  const config = { tableName: 'unused', checkoutBaseUrl: 'https://checkout.example.com', keyCacheTtlMs: DEFAULT_KEY_CACHE_TTL_MS, maxBodyBytes: DEFAULT_MAX_BODY_BYTES };

  it('holds the parts it was given over the core, and no other', () => {
    const deps = createDeps({ config, db, parts: (core) => gatewaysFromEnvironment({}, core) });
    expect(typeof deps.gateways).toBe('function');
    expect(deps.config).toBe(config);
    expect(Object.keys(deps)).not.toContain('secretBox');
    expect(Object.keys(deps)).not.toContain('queues');
  });

  it('refuses a user token where the function has no verifier, instead of failing on a missing part', async () => {
    const deps = createDeps({ config, db, parts: () => ({}) });
    await expect(deps.authenticator.authenticateUser('Bearer a.b.c', undefined)).rejects.toThrow();
  });
});
