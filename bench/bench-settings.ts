/**
 * How long and how hard the benchmark runs. A full run stays under about five minutes on a 2-core machine;
 * BENCH_QUICK=1 shrinks everything for a smoke run while developing. Each figure can be overridden alone.
 */
export interface BenchSettings {
  quick: boolean;
  /** Concurrent connections of every per-route latency run, and of the raw DynamoDB loops they are compared with. */
  connections: number;
  /** Seconds of each per-route latency run; the raw round trips after it share the same time between them. */
  durationSeconds: number;
  /** Leading share of each run whose samples are dropped (connection set-up, JIT warm-up). */
  warmupShare: number;
  /** Requests of each route that uses up a fresh session (expire, charge): a fixed count instead of a duration. */
  consumingRequests: number;
  /** Sessions of the listing merchant: enough for page 50 at pageSize 10. */
  listSessions: number;
  throughputConnections: number;
  throughputSeconds: number;
  /** Webhooks of each kind (session.expired, charge.approved) timed per round, idle and under load. */
  timelinessSamples: number;
  /** Fresh Node.js processes per bundle for the load time. */
  coldStartSpawns: number;
  /** Sequential requests per route for the round-trip count once the key cache is warm. */
  countSamples: number;
}

function number(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

export function benchSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const quick = env.BENCH_QUICK === '1';
  return {
    quick,
    connections: number(env, 'BENCH_CONNECTIONS', quick ? 4 : 10),
    durationSeconds: number(env, 'BENCH_DURATION_SECONDS', quick ? 3 : 6),
    warmupShare: 0.1,
    consumingRequests: number(env, 'BENCH_CONSUMING_REQUESTS', quick ? 200 : 600),
    listSessions: number(env, 'BENCH_LIST_SESSIONS', 500),
    throughputConnections: number(env, 'BENCH_THROUGHPUT_CONNECTIONS', quick ? 8 : 20),
    throughputSeconds: number(env, 'BENCH_THROUGHPUT_SECONDS', quick ? 3 : 20),
    timelinessSamples: number(env, 'BENCH_TIMELINESS_SAMPLES', quick ? 10 : 25),
    coldStartSpawns: number(env, 'BENCH_COLD_START_SPAWNS', quick ? 3 : 5),
    countSamples: number(env, 'BENCH_COUNT_SAMPLES', quick ? 3 : 5),
  };
}
