/**
 * The dashboard's own routes are left out of the public OpenAPI document, yet held to their answer schemas
 * (shared/schemas/dashboard-responses.ts): the dashboard page's types are derived from them, so a schema that says
 * less or other than the API answers would type the page wrongly. Every answer here is checked against its route's
 * schema, and every GET of the dashboard is among them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../../shared/admin/bank-credentials.ts';
import { OPERATION_RESPONSES } from '../../../shared/openapi/operation-responses.ts';
import { routes, type RouteId } from '../../../shared/routes.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, TEST_PASSWORD, type SignedIn } from './dashboard-users.ts';

describe("the dashboard routes' answers match their schemas", () => {
  let sandbox: TestSandbox;
  let admin: SignedIn;
  const checked = new Set<RouteId>();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  /**
   * Calls the route as `user` (signed out: null) and checks the answer is one of its success statuses, with a body its
   * schema accepts.
   */
  async function answer(user: SignedIn | null, id: RouteId, options: { params?: Record<string, string>; query?: string; body?: unknown } = {}) {
    const route = routes[id];
    const path = `${route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''))}${options.query ?? ''}`;
    const res = user ? await user.request(route.method, path, { mode: 'live', body: options.body }) : await sandbox.request(route.method, path, { body: options.body });
    const schema = OPERATION_RESPONSES[id].success[res.status as 200 | 201 | 202];
    expect(schema, `${id} answered ${res.status}: ${res.text}`).toBeDefined();
    const parsed = schema!.safeParse(res.body);
    expect(parsed.success ? [] : parsed.error.issues, `${id} answered a body its schema refuses`).toEqual([]);
    checked.add(id);
    return res;
  }

  it('for the overview, the payments and a payment with its attempts and deliveries', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'live-key' }));
    admin = await signedInUser(sandbox, merchant.id, 'admin');
    const endpoint = await admin.request('POST', '/v1/webhooks/endpoints', { mode: 'live', body: { url: 'https://example.com/hooks' } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const paid = await openSession(sandbox, keys.secretLive, { amountMinor: 1050, maxFailures: 2 });
    await checkoutCharge(sandbox, paid.reference, { card: card(TEST_CARDS.insufficientFunds) });
    const approved = await checkoutCharge(sandbox, paid.reference, { card: card(TEST_CARDS.visa) });
    expect(approved.body.transaction.status).toBe('approved');
    await sandbox.background.drain();

    const overview = await answer(admin, 'getDashboardOverview', { query: '?tz=America/Caracas' });
    expect(overview.body.recentFailures).toHaveLength(1);
    const list = await answer(admin, 'listDashboardPayments');
    expect(list.body.data.map((row: { reference: string }) => row.reference)).toContain(paid.reference);
    const detail = await answer(admin, 'getDashboardPayment', { params: { reference: paid.reference } });
    expect(detail.body.transactions).toHaveLength(2);
    expect(detail.body.deliveries.length).toBeGreaterThan(0);
    await answer(admin, 'getDashboardPayment', { params: { reference: approved.body.transaction.reference } });
  });

  it('for the signed-in user, the keys, the users, the settings and the audit log, read and changed', async () => {
    await answer(admin, 'getDashboardMe');
    await answer(admin, 'getDashboardMfa');
    const keyList = await answer(admin, 'listDashboardKeys');
    const liveSecret = keyList.body.data.find((key: { kind: string; mode: string }) => key.kind === 'secret' && key.mode === 'live');
    const rolled = await answer(admin, 'rollDashboardKey', { params: { id: liveSecret.id } });
    await answer(admin, 'revokeDashboardKey', { params: { id: rolled.body.key.id } });
    await answer(admin, 'getDashboardSettings');
    await answer(admin, 'updateDashboardSettings', { body: { businessName: 'Panadería La Ceiba' } });
    const created = await answer(admin, 'createDashboardUser', { body: { email: `responses-${Date.now()}@example.com`, role: 'read_only' } });
    await answer(admin, 'updateDashboardUser', { params: { id: created.body.user.id }, body: { role: 'developer' } });
    await answer(admin, 'listDashboardUsers');
    await answer(admin, 'deleteDashboardUser', { params: { id: created.body.user.id } });
    const log = await answer(admin, 'listAuditLog');
    expect(log.body.data.length).toBeGreaterThan(0);

    await answer(null, 'dashboardSignIn', { body: { email: admin.email, password: TEST_PASSWORD } });
    await answer(admin, 'dashboardSignOut');
  });

  it('covers every GET of the dashboard', () => {
    const gets = (Object.keys(routes) as RouteId[]).filter((id) => (routes[id] as { internal?: true }).internal && routes[id].method === 'GET');
    expect(gets.filter((id) => !checked.has(id))).toEqual([]);
  });
});
