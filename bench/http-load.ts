import autocannon from 'autocannon';
import { requestHeaders, type BenchRequest } from './bench-environment.ts';
import { summariseLatencies, type LatencyStats } from './latency-stats.ts';

export interface LoadOptions {
  connections: number;
  warmupShare: number;
  /** Either a duration or a fixed number of requests (for requests that each use up prepared data). */
  durationSeconds?: number;
  amount?: number;
  /** Called once per request sent: the next request to send. */
  next: () => BenchRequest;
}

export interface LoadResult extends LatencyStats {
  /** Status codes other than 2xx, with their counts, to say what went wrong. */
  statusCounts: Record<string, number>;
}

/** Closed-loop load with autocannon: `connections` keep-alive connections, each sending its next request as soon as the last one is answered. */
export async function runHttpLoad(url: string, { connections, warmupShare, durationSeconds, amount, next }: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const options: autocannon.Options = {
    url,
    connections,
    ...(amount !== undefined ? { amount } : { duration: durationSeconds ?? 10 }),
    requests: [
      {
        // autocannon keeps one context per connection and, without pipelining, answers it before building its next request.
        setupRequest: (request, context) => {
          const bench = next();
          (context as { bench?: BenchRequest }).bench = bench;
          const { method, path, body } = bench;
          return { ...request, method: method as autocannon.Request['method'], path, headers: requestHeaders(bench), body: body === undefined ? undefined : JSON.stringify(body) };
        },
        onResponse: (status, body, context) => (context as { bench?: BenchRequest }).bench?.onResponse?.(status, body),
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    // The callback form returns the event emitter, whose response event carries sub-millisecond times.
    const instance = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    });
  });
  const non2xx = Object.entries(statusCounts).reduce((n, [status, count]) => (status.startsWith('2') ? n : n + count), 0);
  return {
    ...summariseLatencies(latencies, { warmupShare, elapsedSeconds: result.duration, errors: result.errors + result.timeouts + non2xx }),
    statusCounts,
  };
}
