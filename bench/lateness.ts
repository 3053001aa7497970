/**
 * `npm run bench:lateness`: section 5 of `npm run bench` alone (webhook lateness, idle and under the throughput
 * mix), for comparing changes to the sandbox's triggers back to back without the other sections' five minutes.
 * Same settings as the full run (bench/bench-settings.ts); BENCH_LATENESS_RUNS repeats both rounds.
 */
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchEnvironment, type BenchRequest } from './bench-environment.ts';
import { benchSettings } from './bench-settings.ts';
import { routeScenarios, type ScenarioContext } from './route-scenarios.ts';
import { measureThroughput, THROUGHPUT_MIX } from './throughput.ts';
import { startTimeliness, type TimelinessRound } from './timeliness.ts';

const log = (message: string) => process.stderr.write(`[lateness ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

const line = (label: string, round: TimelinessRound) =>
  Object.entries(round)
    .map(([event, s]) => {
      const stages = s.stages ? ` (${Object.entries(s.stages).map(([stage, p]) => `${stage} p50 ${p.p50Ms} / p99 ${p.p99Ms}`).join('; ')})` : '';
      return `${label.padEnd(10)} ${event.padEnd(16)} p50 ${String(s.p50Ms).padStart(5)} ms  p99 ${String(s.p99Ms).padStart(5)} ms  max ${String(s.maxMs).padStart(5)} ms  received ${s.received}, missing ${s.missing}${stages}`;
    })
    .join('\n');

async function main() {
  const settings = benchSettings();
  const runs = Number(process.env.BENCH_LATENESS_RUNS ?? 1);
  log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${runs} run(s) of ${settings.timelinessSamples} samples`);
  const env = await startBenchEnvironment();
  try {
    const ctx: ScenarioContext = { env, writer: await env.newMerchant({ webhooks: true }), lister: await env.newMerchant(), openSessions: [] };
    await env.createSessions(ctx.lister, settings.listSessions);
    const receiver = await startTimeliness(env);
    for (let run = 1; run <= runs; run++) {
      const builders = new Map<string, () => BenchRequest>();
      for (const { scenario } of THROUGHPUT_MIX) {
        const found = routeScenarios.find((s) => s.label === scenario);
        if (found?.prepare) builders.set(scenario, await found.prepare(ctx, settings.consumingRequests));
      }
      await env.sandbox.background.drain();
      const idle = await receiver.round(settings.timelinessSamples);
      let loadEnded = false;
      const load = measureThroughput(env, builders, {
        connections: settings.throughputConnections,
        durationSeconds: settings.throughputSeconds,
        warmupShare: settings.warmupShare,
        profilePath: join(tmpdir(), 'lateness-throughput.cpuprofile'),
      }).finally(() => (loadEnded = true));
      await sleep(settings.throughputSeconds * 1000 * settings.warmupShare);
      const underLoad = await receiver.round(settings.timelinessSamples);
      const outlasted = loadEnded;
      const { load: mix } = await load;
      console.log(`run ${run}: load average ${loadavg()[0]!.toFixed(2)}; mix ${mix.requestsPerSecond.toFixed(0)} req/s${outlasted ? ' (the round outlasted the load)' : ''}`);
      console.log(line('idle', idle));
      console.log(line('under load', underLoad));
    }
    await receiver.stop();
  } finally {
    await env.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
