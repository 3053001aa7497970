import { UNSCOPED, type CallCount } from '../shared/observability/call-counter.ts';
import { REQUEST_SCOPE, type BenchEnvironment, type BenchRequest } from './bench-environment.ts';

export interface RouteRoundTrips {
  /** First request after the key and merchant caches lapsed. */
  cold: CallCount[];
  /** Per request, averaged over `samples` requests with warm caches: a fraction means a call that only some make (a retry). */
  steady: CallCount[];
  /** Per request, the in-process workers' calls for what the request set off (stream, queues, scheduler stand-in). */
  workers: CallCount[];
  samples: number;
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
    await sandbox.background.drain();
    const before = counter.snapshot();
    const res = await env.send(request);
    if (res.status >= 300) throw new Error(`${request.method} ${request.path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const calls = counter.since(before, REQUEST_SCOPE);
    await sandbox.background.drain();
    return { calls, workers: counter.since(before, UNSCOPED) };
  };

  sandbox.clock.advance(sandbox.deps.config.keyCacheTtlMs + 1000);
  const cold = (await sendOne()).calls;
  const steady: CallCount[][] = [];
  const workers: CallCount[][] = [];
  for (let i = 0; i < samples; i++) {
    const one = await sendOne();
    steady.push(one.calls);
    workers.push(one.workers);
  }
  return { cold, steady: meanPerRequest(steady), workers: meanPerRequest(workers), samples };
}
