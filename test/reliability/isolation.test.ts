/**
 * Issue 9.4: every route of the manifest with another merchant's credentials and with the other mode's key,
 * against one merchant's resources. Always 404 (409 where the spec says so), never the other's data, and
 * nothing of the owner changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDefinition } from '../../shared/routes.ts';
import { figureCounter, reportFigures } from '../support/figures.ts';
import { fillPath } from '../support/raw-request.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';
import { bodyReferenceOf, merchantFixture, P2C_REFERENCE, namedInBody, pathValues, requiredQuery, type MerchantFixture } from './merchant-fixture.ts';
import { merchantSnapshot, snapshotDiff } from './table-snapshot.ts';
import { SUITE_TIMEOUT_MS } from './suite-limits.ts';

/** Where the spec answers something other than 404 to a resource of the other mode. */
const OTHER_MODE_STATUS: Partial<Record<string, number>> = { expireSession: 409 };

describe('isolation between merchants and modes', { timeout: SUITE_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  let owner: MerchantFixture;
  let other: MerchantFixture;
  const figures = figureCounter('cells', 'routesCovered', 'leaks', 'unexpectedStatus', 'ownerChanged');

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tableName: 'svc-test-isolation' });
    receiver = await startReceiver();
    owner = await merchantFixture(sandbox, `${receiver.url}/owner`);
    other = await merchantFixture(sandbox, `${receiver.url}/other`);
    await sandbox.background.drain();
  });
  afterAll(async () => {
    reportFigures('isolation', figures);
    await sandbox?.stop();
    await receiver?.close();
  });

  const ownerIds = () => [owner.merchant.id, owner.sessionReference, owner.transactionReference, owner.endpointId, owner.deliveryId, owner.endpointSecret, ...(owner.cardToken ? [owner.cardToken] : [])];

  /** No id or secret of the owner in an answer, except the one the caller named in its own request. */
  function expectNoOwnerData(res: TestResponse, named: string[]) {
    for (const id of ownerIds().filter((i) => !named.includes(i))) {
      if (res.text.includes(id)) figures.leaks++;
      expect(res.text, `answer carries ${id}`).not.toContain(id);
    }
  }

  const callers = () => [
    { who: 'another merchant', secret: other.keys.secretTest, publishable: other.keys.publishableTest, otherMode: false },
    { who: 'the other mode', secret: owner.keys.secretLive, publishable: owner.keys.publishableLive, otherMode: true },
  ];

  /** A body the route accepts, so that the caller reaches the lookup of the owner's resource (a refund's defaults). */
  const secretBodyOf = (route: RouteDefinition) =>
    route.method === 'PATCH' ? { url: `${receiver.url}/taken-over` } : route.path.endsWith('/pago-movil-reference') ? P2C_REFERENCE : route.idempotency === 'required' ? {} : undefined;

  for (const [id, route] of Object.entries(routes) as [string, RouteDefinition][]) {
    it(`${id} (${route.method} ${route.path}) never serves or changes the owner's data to another merchant or mode`, async () => {
      if (route.auth !== 'secret' && route.auth !== 'checkout') return; // public routes name no merchant's data
      const before = await merchantSnapshot(sandbox.deps.config.tableName, owner.merchant.id);
      figures.routesCovered++;
      for (const caller of callers()) {
        let res: TestResponse;
        let named: string[] = [];
        if (route.auth === 'checkout') {
          // The session reference is the buyer's credential; a publishable key that does not match it is refused.
          const values = pathValues(route, owner);
          named = Object.values(values);
          const body = bodyReferenceOf(route, owner);
          if (body) named.push(String(body.sessionReference), String(body.transactionReference ?? ''));
          res = await sandbox.request(route.method, fillPath(route.path, values), { key: caller.publishable, body: body ?? undefined, headers: { 'idempotency-key': crypto.randomUUID() } });
          expect([401, 404], `${caller.who}: ${res.text}`).toContain(res.status);
        } else if (route.path.includes('{')) {
          const values = pathValues(route, owner);
          named = Object.values(values);
          res = await sandbox.request(route.method, fillPath(route.path, values), { key: caller.secret, body: secretBodyOf(route), headers: { 'idempotency-key': crypto.randomUUID() } });
          const expected = caller.otherMode ? (OTHER_MODE_STATUS[id] ?? 404) : 404;
          if (res.status !== expected) figures.unexpectedStatus++;
          expect(res.status, `${caller.who}: ${res.text}`).toBe(expected);
        } else if (route.method === 'GET') {
          // Lists and summaries answer 200 with the caller's own data only.
          res = await sandbox.request('GET', `${route.path}${requiredQuery(route)}`, { key: caller.secret });
          expect(res.status, `${caller.who}: ${res.text}`).toBe(200);
        } else if (namedInBody(route, owner)) {
          // A create that names the owner's stored card: the card is not found for anyone else.
          const body = namedInBody(route, owner)!;
          named = [String(body.svcToken ?? body.cardToken)];
          res = await sandbox.request(route.method, route.path, { key: caller.secret, body, headers: { 'idempotency-key': crypto.randomUUID() } });
          if (res.status !== 404) figures.unexpectedStatus++;
          expect(res.status, `${caller.who}: ${res.text}`).toBe(404);
        } else {
          // A create without a path parameter makes something of the caller's own; nothing of the owner to name.
          continue;
        }
        figures.cells++;
        expectNoOwnerData(res, named);
      }
      await sandbox.background.drain();
      const diff = snapshotDiff(before, await merchantSnapshot(sandbox.deps.config.tableName, owner.merchant.id));
      figures.ownerChanged += diff.length;
      expect(diff).toEqual([]);
    });
  }
});
