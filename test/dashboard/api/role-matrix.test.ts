import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, roleAtLeast, type Role } from '../../../shared/domain/roles.ts';
import { routes, type RouteDefinition } from '../../../shared/routes.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, type SignedIn } from './dashboard-users.ts';

/** A well-formed path for the route: its parameters filled with ids of the right shape (that name nothing). */
function concretePath(route: RouteDefinition): string {
  return route.path
    .replace('/users/{id}', '/users/usr_Nothing000000000000000')
    .replace('/keys/{id}', `/keys/${'0'.repeat(64)}`)
    .replace('/endpoints/{id}', '/endpoints/we_Nothing000000000000000')
    .replace('/webhook-endpoints/{id}', '/webhook-endpoints/we_Nothing000000000000000')
    .replace('/deliveries/{id}', '/deliveries/wd_Nothing000000000000000')
    .replace('/transactions/{reference}', '/transactions/txn_Nothing000000000000000')
    .replace('{reference}', 'cs_Nothing000000000000000')
    .replace('{svcToken}', 'tok_svc_Nothing000000000000000')
    .replace('{gateway}', 'bank_direct')
    .replace('{merchantId}', 'mer_Nothing')
    .replace('{hash}', '0'.repeat(32));
}

const entries = Object.entries(routes) as [string, RouteDefinition][];
const dashboardRoutes = entries.filter(([, route]) => route.dashboard);
// Sign-out ends the session the other cases go on using: it has its own case, with users of its own.
const matrixRoutes = dashboardRoutes.filter(([id]) => id !== 'dashboardSignOut');

describe('dashboard authorization: every route x role, enforced by the API', () => {
  let sandbox: TestSandbox;
  const users = {} as Record<Role, SignedIn>;
  let adminWithoutMfa: SignedIn;
  let merchantId: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    merchantId = (await sandbox.newMerchant()).merchant.id;
    for (const role of ROLES) users[role] = await signedInUser(sandbox, merchantId, role);
    adminWithoutMfa = await signedInUser(sandbox, merchantId, 'admin', { mfa: false });
  });
  afterAll(() => sandbox.stop());

  const call = (user: SignedIn, route: RouteDefinition) =>
    user.request(route.method, concretePath(route), { mode: 'test', body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });

  const cases = matrixRoutes.flatMap(([id, route]) => ROLES.map((role) => [`${id} (${route.method} ${route.path}) as ${role}`, route, role] as const));

  it.each(cases)('%s', async (_name, route, role) => {
    const res = await call(users[role], route);
    if (roleAtLeast(role, route.dashboard!)) {
      // Past authorization: whatever the (empty) input makes of it, never 401 or 403.
      expect([401, 403], res.text).not.toContain(res.status);
    } else {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('insufficient_permissions');
    }
  });

  it('lets every role sign out, which ends that session', async () => {
    for (const role of ROLES) {
      const user = await signedInUser(sandbox, merchantId, role);
      expect((await call(user, routes.dashboardSignOut)).status, role).toBe(200);
      expect((await user.request('GET', '/v1/dashboard/me')).status, role).toBe(401);
    }
  });

  it.each(matrixRoutes.map(([id, route]) => [`${id} (${route.method} ${route.path})`, route] as const))(
    '%s: an admin signed in without MFA gets only what enrolling takes (else 403 mfa_required)',
    async (_name, route) => {
      const res = await call(adminWithoutMfa, route);
      if (route.beforeMfa) {
        expect([401, 403], res.text).not.toContain(res.status);
      } else {
        expect(res.status, res.text).toBe(403);
        expect(res.body.code).toBe('mfa_required');
      }
    },
  );

  it.each(entries.filter(([, route]) => !route.dashboard && route.auth === 'secret'))('%s refuses a user token (401), even an admin\'s', async (_id, route) => {
    const res = await call(users.admin, route);
    expect(res.status, res.text).toBe(401);
  });

  it('declares, for every write route a user may call, where its audit entry comes from', () => {
    const writes = dashboardRoutes.filter(([, route]) => route.access === 'write');
    for (const [id, route] of writes) {
      // Routes under /v1/dashboard write their own entry (in the change's transaction where it is one).
      expect(route.path.startsWith('/v1/dashboard/') || route.audit !== undefined, id).toBe(true);
    }
  });

  it('keeps secrets from read_only: every route that answers one needs developer or above', () => {
    for (const id of ['createWebhookEndpoint', 'updateWebhookEndpoint', 'rollDashboardKey', 'listDashboardKeys', 'putDashboardBankCredentials'] as const) {
      expect(roleAtLeast('read_only', routes[id].dashboard!), id).toBe(false);
    }
  });
});
