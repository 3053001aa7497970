import { readFileSync, writeFileSync } from 'node:fs';
import type { BenchEnvironment, BenchRequest } from './bench-environment.ts';
import { profileCpu, summariseProfile, type CpuProfileSummary } from './cpu-profile.ts';
import { runHttpLoad, type LoadResult } from './http-load.ts';

/**
 * The realistic mix, by scenario label and weight: a merchant creates a session, polls it a few times, lists now
 * and then, and the buyer pays (charge) once the route exists.
 */
export const THROUGHPUT_MIX: { scenario: string; weight: number }[] = [
  { scenario: 'create session', weight: 2 },
  { scenario: 'get session', weight: 5 },
  { scenario: 'list sessions page 1', weight: 1 },
  { scenario: 'checkout charge (approving card)', weight: 2 },
];

export interface ThroughputResult {
  mix: { scenario: string; weight: number }[];
  /** Mix entries whose scenario is not available yet. */
  missing: string[];
  load: LoadResult;
  /** CPU seconds per wall second: the sandbox's Node.js process and DynamoDB Local's JVM (1.0 = one core busy). */
  cpu: { node: number; dynamoLocal: number | null };
  profile: CpuProfileSummary;
}

/** utime + stime of a process from /proc, in seconds; null where /proc is not there. */
function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th of the whole line.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Sustained requests per second of the mix at a fixed concurrency, under the CPU profiler. */
export async function measureThroughput(
  env: BenchEnvironment,
  builders: Map<string, () => BenchRequest>,
  { connections, durationSeconds, warmupShare, profilePath }: { connections: number; durationSeconds: number; warmupShare: number; profilePath: string },
): Promise<ThroughputResult> {
  const mix = THROUGHPUT_MIX.filter((m) => builders.has(m.scenario));
  const sequence = mix.flatMap((m) => Array.from({ length: m.weight }, () => builders.get(m.scenario)!));
  let i = 0;
  const next = () => sequence[i++ % sequence.length]!();

  const javaBefore = processCpuSeconds(env.dynamo.process.pid);
  const nodeBefore = process.cpuUsage();
  const started = performance.now();
  const { result: load, profile } = await profileCpu(() => runHttpLoad(env.sandbox.url, { connections, durationSeconds, warmupShare, next }));
  const wall = (performance.now() - started) / 1000;
  const nodeUsed = process.cpuUsage(nodeBefore);
  const javaAfter = processCpuSeconds(env.dynamo.process.pid);
  writeFileSync(profilePath, JSON.stringify(profile));

  return {
    mix,
    missing: THROUGHPUT_MIX.filter((m) => !builders.has(m.scenario)).map((m) => m.scenario),
    load,
    cpu: {
      node: (nodeUsed.user + nodeUsed.system) / 1e6 / wall,
      dynamoLocal: javaBefore === null || javaAfter === null ? null : (javaAfter - javaBefore) / wall,
    },
    profile: summariseProfile(profile),
  };
}
