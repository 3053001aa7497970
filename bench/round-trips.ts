import type { CallCount } from '../shared/observability/call-counter.ts';
import { REQUEST_SCOPE, type BenchEnvironment, type BenchRequest } from './bench-environment.ts';

export interface RouteRoundTrips {
  /** First request after the key and merchant caches lapsed. */
  cold: CallCount[];
  /** Per request, averaged over `samples` requests with warm caches: a fraction means a call that only some make (a retry). */
  steady: CallCount[];
  samples: number;
}

/**
 * Counts the SDK calls of single requests, one at a time so that each call belongs to the request being sent;
 * the workers' calls, triggered by the request through the stream but not part of it, are left out.
 * Cold: the sandbox clock is moved past the key cache's lifetime first, which is what a new Lambda container or
 * a key unused for 30 s sees. `next` must have 1 + samples requests ready.
 */
export async function countRoundTrips(env: BenchEnvironment, next: () => BenchRequest, samples: number): Promise<RouteRoundTrips> {
  const { counter, sandbox } = env;
  const sendOne = async () => {
    const request = next();
    const before = counter.snapshot();
    const res = await env.send(request);
    if (res.status >= 300) throw new Error(`${request.method} ${request.path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return counter.since(before, REQUEST_SCOPE);
  };

  sandbox.clock.advance(sandbox.deps.config.keyCacheTtlMs + 1000);
  const cold = await sendOne();
  const total = new Map<string, CallCount>();
  for (let i = 0; i < samples; i++) {
    for (const call of await sendOne()) {
      const key = `${call.service}:${call.command}`;
      const sum = total.get(key) ?? { ...call, calls: 0, capacityUnits: 0 };
      sum.calls += call.calls;
      sum.capacityUnits += call.capacityUnits;
      total.set(key, sum);
    }
  }
  const steady = [...total.values()].map((c) => ({ ...c, calls: c.calls / samples, capacityUnits: c.capacityUnits / samples }));
  return { cold, steady, samples };
}
