import { randomUUID } from 'node:crypto';
import { MAX_ENDPOINTS_PER_MODE } from '../functions/webhooks/create-webhook-endpoint.ts';
import { routes, type RouteDefinition } from '../shared/routes.ts';
import { BENCH_SESSION_BODY, type BenchEnvironment, type BenchMerchant, type BenchRequest } from './bench-environment.ts';

/** What a scenario may prepare its requests with. */
export interface ScenarioContext {
  env: BenchEnvironment;
  /** Creates, reads and expires sessions: it accumulates thousands of them. */
  writer: BenchMerchant;
  /** Holds a fixed number of sessions (settings.listSessions), so a list page always costs the same. */
  lister: BenchMerchant;
  /**
   * The writer's sessions still open: every create adds its session, every charge or expire takes one, so
   * requests that need a fresh session use what the creates made and seed only the shortfall.
   */
  openSessions: string[];
}

export interface RouteScenario {
  label: string;
  /** The route it exercises, as the spec names it; looked up in shared/routes.ts by method and path. */
  method: RouteDefinition['method'];
  path: string;
  /** Each request uses up what it was prepared with (a session to expire): run exactly as many as prepared. */
  consumes?: boolean;
  /**
   * Readies data for `count` requests (only `consumes` scenarios need that many) and returns the builder of the
   * next request. Absent while the route's request shape is unknown: the scenario is then reported, not run.
   */
  prepare?: (ctx: ScenarioContext, count: number) => Promise<() => BenchRequest>;
}

/** Round-robin over a pool, so every request reads a different item without running out. */
const cycle = <T>(items: T[]) => {
  let i = 0;
  return () => items[i++ % items.length]!;
};

const READ_POOL = 200;

/** Keeps the reference of each session a create answered with. */
const keepCreated = (ctx: ScenarioContext) => (status: number, body: string) => {
  if (status === 201) ctx.openSessions.push((JSON.parse(body) as { reference: string }).reference);
};

/** Makes sure `count` open sessions are there, then hands one out per call (newest first). */
async function openSessionTaker(ctx: ScenarioContext, count: number): Promise<() => string> {
  const shortfall = count - ctx.openSessions.length;
  if (shortfall > 0) ctx.openSessions.push(...(await ctx.env.createSessions(ctx.writer, shortfall)));
  return () => {
    const reference = ctx.openSessions.pop();
    if (!reference) throw new Error('No open session left: raise the count this scenario was prepared with');
    return reference;
  };
}

/**
 * A merchant may hold MAX_ENDPOINTS_PER_MODE endpoints, so `count` creates need that many merchants between
 * them; each is handed out until full. Their keys are used once first, so the creates find them cached.
 */
async function endpointOwners(ctx: ScenarioContext, count: number): Promise<() => BenchMerchant> {
  const owners = await Promise.all(Array.from({ length: Math.ceil(count / MAX_ENDPOINTS_PER_MODE) }, () => ctx.env.newMerchant()));
  await Promise.all(owners.map((m) => ctx.env.send({ method: 'GET', path: '/v1/webhooks/endpoints', key: m.key })));
  let used = 0;
  return () => owners[Math.floor(used++ / MAX_ENDPOINTS_PER_MODE)]!;
}

/** A test card the sandbox bank approves, with the document the VES gateway asks for. */
export const APPROVING_PAYMENT = {
  card: { number: '4111111111111111', expMonth: 12, expYear: 2040, cvv: '123', holderName: 'Ana Perez' },
  document: { type: 'V', id: '12345678' },
};

/** One line per route; a route that does not exist yet is reported as not measured and picked up once it does. */
export const routeScenarios: RouteScenario[] = [
  {
    label: 'create session',
    method: 'POST',
    path: '/v1/sessions',
    prepare: async (ctx) => () => ({ method: 'POST', path: '/v1/sessions', key: ctx.writer.key, body: BENCH_SESSION_BODY, onResponse: keepCreated(ctx) }),
  },
  {
    label: 'create session with Idempotency-Key',
    method: 'POST',
    path: '/v1/sessions',
    prepare: async (ctx) => {
      let n = 0;
      const run = randomUUID();
      return () => ({
        method: 'POST',
        path: '/v1/sessions',
        key: ctx.writer.key,
        body: BENCH_SESSION_BODY,
        headers: { 'idempotency-key': `bench-${run}-${n++}` },
        onResponse: keepCreated(ctx),
      });
    },
  },
  {
    label: 'get session',
    method: 'GET',
    path: '/v1/sessions/{reference}',
    prepare: async ({ env, writer }) => {
      const next = cycle(await env.createSessions(writer, READ_POOL));
      return () => ({ method: 'GET', path: `/v1/sessions/${next()}`, key: writer.key });
    },
  },
  {
    label: 'list sessions page 1',
    method: 'GET',
    path: '/v1/sessions',
    prepare: async ({ lister }) => () => ({ method: 'GET', path: '/v1/sessions?page=1&pageSize=10', key: lister.key }),
  },
  {
    label: 'list sessions page 50',
    method: 'GET',
    path: '/v1/sessions',
    prepare: async ({ lister }) => () => ({ method: 'GET', path: '/v1/sessions?page=50&pageSize=10', key: lister.key }),
  },
  {
    label: 'expire session',
    method: 'POST',
    path: '/v1/sessions/{reference}/expire',
    consumes: true,
    prepare: async (ctx, count) => {
      const take = await openSessionTaker(ctx, count);
      return () => ({ method: 'POST', path: `/v1/sessions/${take()}/expire`, key: ctx.writer.key });
    },
  },
  {
    label: 'checkout page reads the session',
    method: 'GET',
    path: '/v1/checkout/sessions/{reference}',
    prepare: async ({ env, writer }) => {
      const next = cycle(await env.createSessions(writer, READ_POOL));
      return () => ({ method: 'GET', path: `/v1/checkout/sessions/${next()}` });
    },
  },
  {
    label: 'checkout charge (approving card)',
    method: 'POST',
    path: '/v1/checkout/charge',
    consumes: true,
    // From the buyer's browser: no key, the session reference is the credential; the Idempotency-Key is required.
    prepare: async (ctx, count) => {
      const take = await openSessionTaker(ctx, count);
      const run = randomUUID();
      let n = 0;
      return () => ({
        method: 'POST',
        path: '/v1/checkout/charge',
        body: { sessionReference: take(), ...APPROVING_PAYMENT },
        headers: { 'idempotency-key': `bench-${run}-${n++}` },
      });
    },
  },
  {
    label: 'list cards',
    method: 'GET',
    path: '/v1/cards',
    prepare: async ({ writer }) => () => ({ method: 'GET', path: '/v1/cards', key: writer.key }),
  },
  {
    label: 'create webhook endpoint',
    method: 'POST',
    path: '/v1/webhooks/endpoints',
    consumes: true,
    // Loopback only (the discard port, where nothing listens): the sandbox must never send outside this machine.
    // Owners without sessions, so no event is ever delivered there.
    prepare: async (ctx, count) => {
      const owner = await endpointOwners(ctx, count);
      return () => ({ method: 'POST', path: '/v1/webhooks/endpoints', key: owner().key, body: { url: 'http://127.0.0.1:9/bench-hook', description: 'bench' } });
    },
  },
];

/** The manifest id of the scenario's route, or null when the route is not in shared/routes.ts yet. */
export function routeIdOf(scenario: Pick<RouteScenario, 'method' | 'path'>): string | null {
  const found = Object.entries(routes as Record<string, RouteDefinition>).find(([, r]) => r.method === scenario.method && r.path === scenario.path);
  return found?.[0] ?? null;
}

/** Why a scenario is not run, or null when it is. */
export function notMeasuredReason(scenario: RouteScenario): string | null {
  if (!routeIdOf(scenario)) return `no ${scenario.method} ${scenario.path} in shared/routes.ts yet`;
  if (!scenario.prepare) return `the route exists but its request shape is not written in bench/route-scenarios.ts yet`;
  return null;
}
