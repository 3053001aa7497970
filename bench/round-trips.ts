import { UNSCOPED, type CallCount } from '../shared/observability/call-counter.ts';
import { SHORT_SESSION_MINUTES } from './timeliness.ts';
import { BENCH_SESSION_BODY, REQUEST_SCOPE, type BenchEnvironment, type BenchMerchant, type BenchRequest } from './bench-environment.ts';

export interface RouteRoundTrips {
  /** First request after the key and merchant caches lapsed. */
  cold: CallCount[];
  /** Per request, averaged over `samples` requests with warm caches: a fraction means a call that only some make (a retry). */
  steady: CallCount[];
  /** Per request, the in-process workers' calls for what the request set off (stream, queues, scheduler stand-in). */
  workers: CallCount[];
  /**
   * Per request, wall time of the workers' drain after it minus the idle drain before it (ms, steady mean): what
   * the workers' invocations took together, stream polling included, so an upper bound of their billed duration.
   */
  workersMs: number;
  /** Per request, webhooks the merchant's receiver got while the workers drained (bench merchants subscribe one endpoint). */
  webhooksDelivered: number;
  samples: number;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Sums call counts per service and command over several requests and divides by their number. */
function meanPerRequest(perRequest: CallCount[][]): CallCount[] {
  const total = new Map<string, CallCount>();
  for (const call of perRequest.flat()) {
    const key = `${call.service}:${call.command}`;
    const sum = total.get(key) ?? { ...call, calls: 0, capacityUnits: 0 };
    sum.calls += call.calls;
    sum.capacityUnits += call.capacityUnits;
    total.set(key, sum);
  }
  return [...total.values()].map((c) => ({ ...c, calls: c.calls / perRequest.length, capacityUnits: c.capacityUnits / perRequest.length }));
}

/**
 * Counts the SDK calls of single requests, one at a time so that each call belongs to the request being sent;
 * the workers are drained before and after each, so their calls belong to it too, counted apart.
 * Cold: the sandbox clock is moved past the key cache's lifetime first, which is what a new Lambda container or
 * a key unused for 30 s sees. `next` must have 1 + samples requests ready.
 */
export async function countRoundTrips(env: BenchEnvironment, next: () => BenchRequest, samples: number): Promise<RouteRoundTrips> {
  const { counter, sandbox } = env;
  const sendOne = async () => {
    const request = next();
    const idleDrain = await timed(() => sandbox.background.drain());
    const before = counter.snapshot();
    const webhooksBefore = env.webhooksReceived();
    const res = await env.send(request);
    if (res.status >= 300) throw new Error(`${request.method} ${request.path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const calls = counter.since(before, REQUEST_SCOPE);
    const drain = await timed(() => sandbox.background.drain());
    return { calls, workers: counter.since(before, UNSCOPED), workersMs: Math.max(0, drain - idleDrain), webhooks: env.webhooksReceived() - webhooksBefore };
  };

  sandbox.clock.advance(sandbox.deps.config.keyCacheTtlMs + 1000);
  const cold = (await sendOne()).calls;
  const steady: CallCount[][] = [];
  const workers: CallCount[][] = [];
  let workersMs = 0;
  let webhooks = 0;
  for (let i = 0; i < samples; i++) {
    const one = await sendOne();
    steady.push(one.calls);
    workers.push(one.workers);
    workersMs += one.workersMs;
    webhooks += one.webhooks;
  }
  return { cold, steady: meanPerRequest(steady), workers: meanPerRequest(workers), workersMs: workersMs / samples, webhooksDelivered: webhooks / samples, samples };
}

export interface BackgroundWork {
  /** Per session, the workers' calls, Lambda invocations included. */
  workers: CallCount[];
  /** Per session, as RouteRoundTrips.workersMs. */
  workersMs: number;
  /** Per session, as RouteRoundTrips.webhooksDelivered. */
  webhooksDelivered: number;
  samples: number;
}

/**
 * What a session left open costs when it reaches expiresAt, which no request sets off: the schedule fires, the
 * hand-over queues the expiry, expireSessions closes the session, and its event is dispatched. Each sample
 * creates a short session, lets its planning finish, then moves the sandbox clock past expiresAt and drains.
 */
export async function countTimedExpiry(env: BenchEnvironment, merchant: BenchMerchant, samples: number): Promise<BackgroundWork> {
  const { counter, sandbox } = env;
  const perSession: CallCount[][] = [];
  let workersMs = 0;
  const webhooksBefore = env.webhooksReceived();
  for (let i = 0; i < samples; i++) {
    await env.createSessions(merchant, 1, { ...BENCH_SESSION_BODY, expiresInMinutes: SHORT_SESSION_MINUTES });
    await sandbox.background.drain();
    const idleDrain = await timed(() => sandbox.background.drain());
    const before = counter.snapshot();
    sandbox.clock.advance(SHORT_SESSION_MINUTES * 60_000 + 1000);
    workersMs += Math.max(0, (await timed(() => sandbox.background.drain())) - idleDrain);
    perSession.push(counter.since(before, UNSCOPED));
  }
  return { workers: meanPerRequest(perSession), workersMs: workersMs / samples, webhooksDelivered: (env.webhooksReceived() - webhooksBefore) / samples, samples };
}
