/**
 * Issue 9.6: webhook URLs aimed at our own network (literal, through DNS, through redirects) in the AWS
 * configuration; brute-forced API keys; security headers on every answer of every route.
 */
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes, type RouteDefinition } from '../../shared/routes.ts';
import { createHttpPost, HttpPostError } from '../../shared/webhooks/http-post.ts';
import { expectError, expectSecurityHeaders, withoutRequestId } from '../support/assertions.ts';
import { figureCounter, reportFigures } from '../support/figures.ts';
import { fillPath } from '../support/raw-request.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';
import { merchantFixture, pathValues, requiredQuery, type MerchantFixture } from './merchant-fixture.ts';
import { SUITE_TIMEOUT_MS } from './suite-limits.ts';

/** The test's resolver: names a merchant could register that point inside our network. */
const HOSTILE_NAMES: Record<string, LookupAddress[]> = {
  'loopback.evil.test': [{ address: '127.0.0.1', family: 4 }],
  'metadata.evil.test': [{ address: '169.254.169.254', family: 4 }],
  'private.evil.test': [{ address: '10.1.2.3', family: 4 }],
  'v6loopback.evil.test': [{ address: '::1', family: 6 }],
  'mapped.evil.test': [{ address: '::ffff:192.168.0.1', family: 6 }],
  'ecs.evil.test': [{ address: '169.254.170.2', family: 4 }],
  // One public answer does not make a private one safe: the socket could pick either.
  'mixed.evil.test': [{ address: '93.184.216.34', family: 4 }, { address: '172.16.0.5', family: 4 }],
};

vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: unknown, callback: (e: NodeJS.ErrnoException | null, a: LookupAddress[] | string, f?: number) => void) => {
    const hostile = HOSTILE_NAMES[hostname];
    if (!hostile) return actual.lookup(hostname, options as never, callback as never);
    process.nextTick(() => ((options as { all?: boolean }).all ? callback(null, hostile) : callback(null, hostile[0]!.address, hostile[0]!.family)));
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

describe('abuse', { timeout: SUITE_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  let fixture: MerchantFixture;
  const figures = figureCounter('ssrfUrlsRefused', 'ssrfUrlsTried', 'endpointUrlsRefused', 'keysTried', 'keyDynamoWrites', 'distinct401Bodies', 'routesWithHeaders', 'answersWithHeaders');

  beforeAll(async () => {
    sandbox = await startTestSandbox({ keyCacheTtlMs: 0 });
    receiver = await startReceiver();
    fixture = await merchantFixture(sandbox, `${receiver.url}/abuse`);
  });
  afterAll(async () => {
    reportFigures('abuse', figures);
    await sandbox?.stop();
    await receiver?.close();
  });

  describe('webhook targets in the AWS configuration', () => {
    const aws = createHttpPost({ allowLoopback: false, timeoutMs: 2_000 });
    const refusal = async (url: string) => {
      figures.ssrfUrlsTried++;
      const error = await aws(url, { headers: {}, body: '{}' }).then(() => null, (e: unknown) => e);
      if (error instanceof HttpPostError && error.reason === 'forbidden_address') figures.ssrfUrlsRefused++;
      return error instanceof HttpPostError ? error.reason : `answered: ${String(error)}`;
    };

    it.each([
      'https://127.0.0.1/', 'https://127.1.2.3:8443/', 'https://2130706433/', 'https://0x7f000001/', 'https://0177.0.0.1/', 'https://[::1]/', 'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:7f00:1]/', 'https://10.0.0.1/', 'https://172.16.0.1/', 'https://192.168.1.1/', 'https://100.64.0.1/', 'https://[fd00::1]/', 'https://169.254.169.254/latest/meta-data/',
      'https://169.254.170.2/v2/credentials', 'https://[fd00:ec2::254]/', 'https://[fe80::1]/', 'https://169.254.1.1/', 'https://0.0.0.0/', 'https://[::]/', 'https://[64:ff9b::a9fe:a9fe]/',
      'http://93.184.216.34/', 'https://localhost/',
      ...Object.keys(HOSTILE_NAMES).map((name) => `https://${name}/hook`),
    ])('refuses %s', async (url) => {
      expect(await refusal(url)).toBe('forbidden_address');
    });

    it('does not follow a redirect towards the metadata service or anywhere else', async () => {
      let reachedTarget = 0;
      const target = createServer((_, res) => {
        reachedTarget++;
        res.end('{}');
      });
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      const redirector = await startReceiver(() => ({ status: 302, body: '' }));
      const sandboxPost = createHttpPost({ allowLoopback: true });
      for (const location of ['http://169.254.169.254/latest/meta-data/', `http://127.0.0.1:${(target.address() as AddressInfo).port}/`]) {
        const answer = await sandboxPost(`${redirector.url}/?to=${encodeURIComponent(location)}`, { headers: {}, body: '{}' });
        expect(answer.statusCode).toBe(302);
      }
      expect(reachedTarget).toBe(0);
      await redirector.close();
      await new Promise((r) => target.close(r));
    });

    it('refuses to register such URLs when loopback is not allowed (the AWS flag)', async () => {
      const config = sandbox.deps.config as { allowLoopbackWebhooks?: boolean };
      config.allowLoopbackWebhooks = false;
      try {
        for (const url of ['http://127.0.0.1:9/hook', 'https://127.0.0.1/hook', 'https://169.254.169.254/', 'https://10.0.0.1/', 'https://[::1]/', 'https://localhost/hook', 'http://example.com/hook', 'ftp://example.com/']) {
          const res = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: fixture.keys.secretTest, body: { url } });
          expect(res.status, `${url}: ${res.text}`).toBe(400);
          figures.endpointUrlsRefused++;
        }
      } finally {
        config.allowLoopbackWebhooks = true;
      }
    });
  });

  describe('brute-forcing API keys', () => {
    it('answers every wrong key with the same 401 body and writes nothing to DynamoDB', async () => {
      // The fixture's own events are still being delivered in the background: let them finish before counting.
      await sandbox.background.drain();
      const writes: string[] = [];
      const reads: string[] = [];
      sandbox.deps.db.middlewareStack.add(
        (next, context) => async (args) => {
          const name = String(context.commandName);
          const target = JSON.stringify((args.input as { Item?: { pk?: unknown }; Key?: unknown }).Item?.pk ?? (args.input as { Key?: unknown }).Key);
          // The sandbox stand-ins' own bookkeeping (LOCAL_ items: stream checkpoints, schedules) runs in the background
          // on other files' activity; it is not the API's, and AWS has no such items.
          if (/Put|Update|Delete|TransactWrite|BatchWrite/.test(name) && !/LOCAL_/.test(target ?? '')) writes.push(`${name} ${target}`);
          else reads.push(name);
          return next(args);
        },
        { step: 'initialize', name: 'abuseWriteCounter' },
      );
      const alnum = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('')), minLength: 32, maxLength: 32 });
      const wellFormed = fc.tuple(fc.constantFrom('sk_test_', 'sk_live_', 'rk_test_', 'rk_live_'), alnum).map(([p, s]) => `Bearer ${p}${s}`);
      const malformed = fc.oneof(
        fc.string({ maxLength: 200 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, 'x')}`),
        fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer sk_test_', `Bearer ${fixture.keys.secretTest}x`, `Bearer ${fixture.keys.secretTest.slice(0, -1)}`, 'Bearer sk_test_' + 'a'.repeat(5000)),
      );
      // A real publishable key on a secret route gets its own message on purpose (it is public anyway, and the fix
      // is to use the secret key): it is not a wrong key, so it is not in this set.
      const bodies = new Set<string>();
      const timings: number[] = [];
      await fc.assert(
        fc.asyncProperty(fc.oneof(wellFormed, malformed), fc.constantFrom(...Object.values(routes).filter((r) => r.auth === 'secret')), async (authorization, route) => {
          figures.keysTried++;
          const path = route.path.includes('{') ? fillPath(route.path, pathValues(route, fixture)) : `${route.path}${requiredQuery(route)}`;
          const started = performance.now();
          const res = await sandbox.request(route.method, path, { headers: { authorization }, body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
          timings.push(performance.now() - started);
          expectError(res, 401, 'invalid_api_key');
          // The same body but for the request's own id.
          bodies.add(JSON.stringify(withoutRequestId(res.body)));
        }),
        { numRuns: Number(process.env.BRUTE_RUNS ?? 300) },
      );
      figures.keyDynamoWrites = writes.length;
      figures.distinct401Bodies = bodies.size;
      timings.sort((a, b) => a - b);
      console.log(`[reliability] brute force: ${timings.length} keys, p50 ${timings[Math.floor(timings.length / 2)]!.toFixed(1)} ms, p95 ${timings[Math.floor(timings.length * 0.95)]!.toFixed(1)} ms, ${reads.length} DynamoDB reads`);
      sandbox.deps.db.middlewareStack.remove('abuseWriteCounter');
      expect(writes).toEqual([]);
      expect([...bodies], [...bodies].join("\n")).toHaveLength(1);
      // Constant cost: a wrong key never costs more than one key lookup.
      expect(reads.length).toBeLessThanOrEqual(figures.keysTried);
    });
  });

  describe('security headers', () => {
    const expectAllHeaders = (res: { status: number; headers: Headers }) => {
      if (res.status === 200 && res.headers.get('content-type')?.startsWith('image/')) {
        // A served merchant logo: an image, cacheable by design (its URL changes with it); the rest as everywhere.
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      } else expectSecurityHeaders(res as never);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      figures.answersWithHeaders++;
    };

    for (const [id, route] of Object.entries(routes) as [string, RouteDefinition][]) {
      it(`${id}: every answer, refused or served, carries the security headers`, async () => {
        const path = route.path.includes('{') ? fillPath(route.path, pathValues(route, fixture)) : `${route.path}${requiredQuery(route)}`;
        const key = route.auth === 'secret' ? fixture.keys.secretTest : undefined;
        const answers = [
          await sandbox.request(route.method, path, { headers: { authorization: 'Bearer sk_test_wrong' } }),
          await sandbox.request(route.method, `${path.replace(/\/[^/]*$/, '/')}zz%00`, { key }),
          ...(route.method === 'GET' ? [await sandbox.request('GET', path, { key })] : []),
        ];
        for (const res of answers) expectAllHeaders(res);
        figures.routesWithHeaders++;
      });
    }

    it('the sandbox front adds them to its own 404, 405 and 413 answers too', async () => {
      for (const res of [
        await sandbox.request('GET', '/v1/nowhere'),
        await sandbox.request('PUT', '/v1/sessions'),
        await sandbox.request('POST', '/v1/sessions', { rawBody: 'x'.repeat(2 * 1024 * 1024) }),
      ]) expectAllHeaders(res);
    });
  });
});

