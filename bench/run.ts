/**
 * `npm run bench`: issue 8's six measures in one run, against a sandbox and a DynamoDB Local of its own.
 * Prints a table per section and writes everything to bench/results/<time>.json (git-ignored).
 * BENCH_QUICK=1 for a short smoke run; bench/bench-settings.ts lists the other knobs.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { keys } from '../shared/store/keys.ts';
import { REQUEST_SCOPE, startBenchEnvironment } from './bench-environment.ts';
import { benchSettings } from './bench-settings.ts';
import { measureColdStarts } from './cold-start.ts';
import { measureRicInit } from './ric-init.ts';
import { costPer1000Sessions, TIMED_EXPIRY, type MeasuredRoute } from './cost-model.ts';
import { runHttpLoad } from './http-load.ts';
import { RAW_SHARE_OF_ROUTE, rawRoundTrips, storageFloor } from './raw-round-trips.ts';
import { formatReport, type BenchResult, type NotMeasured, type RouteReport } from './report.ts';
import { countRoundTrips, countTimedExpiry } from './round-trips.ts';
import { notMeasuredReason, routeIdOf, routeScenarios, type ScenarioContext } from './route-scenarios.ts';
import { measureThroughput, THROUGHPUT_MIX } from './throughput.ts';
import { startTimeliness } from './timeliness.ts';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** A measure that fails (a worker still being written) is reported as such; the other sections still run. */
async function attempt<T>(measure: () => Promise<T>): Promise<T | NotMeasured> {
  try {
    return await measure();
  } catch (error) {
    return { notMeasured: `failed: ${(error as Error).message}` };
  }
}

const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

async function main() {
  const settings = benchSettings();
  const startedAt = new Date().toISOString();
  const loadAverage = loadavg();
  mkdirSync(RESULTS_DIR, { recursive: true });

  log('starting DynamoDB Local and the sandbox');
  const env = await startBenchEnvironment();
  let result: BenchResult;
  try {
    const ctx: ScenarioContext = { env, writer: await env.newMerchant({ webhooks: true }), lister: await env.newMerchant(), openSessions: [] };
    log(`seeding ${settings.listSessions} sessions for the listing merchant`);
    await env.createSessions(ctx.lister, settings.listSessions);

    const reports: RouteReport[] = routeScenarios.map((s) => ({ label: s.label, routeId: routeIdOf(s), notMeasured: notMeasuredReason(s) ?? undefined }));
    const reportOf = (label: string) => reports.find((x) => x.label === label)!;

    // Section 2 first: each route's counted calls decide its storage floor in section 1. A route that fails here
    // (a handler still being written) is reported with its error and left out of the load runs.
    for (const scenario of routeScenarios.filter((s) => !reportOf(s.label).notMeasured)) {
      log(`counting round trips: ${scenario.label}`);
      const counted = await attempt(async () => countRoundTrips(env, await scenario.prepare!(ctx, 1 + settings.countSamples), settings.countSamples));
      if ('notMeasured' in counted) reportOf(scenario.label).notMeasured = counted.notMeasured;
      else reportOf(scenario.label).roundTrips = counted;
    }
    const runnable = routeScenarios.filter((s) => !reportOf(s.label).notMeasured);
    log(`counting round trips: ${TIMED_EXPIRY} (workers only)`);
    const timedExpiry = await attempt(() => countTimedExpiry(env, ctx.writer, settings.countSamples));

    const [reference] = await env.createSessions(ctx.writer, 1);
    const { Item: sessionItem } = await env.sandbox.deps.db.send(new GetCommand({ TableName: env.tableName, Key: keys.session(reference!) }));
    // Each route is followed at once by its raw baseline: the machine's load drifts, and both sides should see the same.
    // Of the kinds and sizes the route's counted calls have (a Query of its entries, a transaction of its items).
    const rawOptions = { connections: settings.connections, durationSeconds: settings.durationSeconds * RAW_SHARE_OF_ROUTE, warmupShare: settings.warmupShare };
    const rawCalls = rawRoundTrips(env.sandbox.deps.db, env.tableName, sessionItem!);

    const builders = new Map<string, Parameters<typeof runHttpLoad>[1]['next']>();
    for (const scenario of runnable) {
      const count = scenario.consumes ? settings.consumingRequests : 0;
      const next = await scenario.prepare!(ctx, count);
      if (!scenario.consumes) builders.set(scenario.label, next);
      // The workers' backlog from seeding is not this route's: it would run in other Lambdas in AWS.
      await env.sandbox.background.drain();
      log(`latency: ${scenario.label}`);
      // The route alone, and its raw baseline alike: in AWS the workers it sets off are other Lambdas.
      env.sandbox.background.pause();
      const before = env.counter.snapshot();
      const latency = await runHttpLoad(env.sandbox.url, {
        connections: settings.connections,
        warmupShare: settings.warmupShare,
        ...(scenario.consumes ? { amount: count } : { durationSeconds: settings.durationSeconds }),
        next,
      });
      const responses = Object.values(latency.statusCounts).reduce((a, b) => a + b, 0);
      const { steady } = reportOf(scenario.label).roundTrips!;
      const raw = await rawCalls.measureFor(steady, rawOptions);
      env.sandbox.background.resume();
      const floor = storageFloor(steady, raw);
      Object.assign(reportOf(scenario.label), {
        latency,
        underLoad: env.counter.since(before, REQUEST_SCOPE).map((c) => ({ ...c, calls: c.calls / responses, capacityUnits: c.capacityUnits / responses })),
        raw,
        floor: { ...floor, ratio: latency.p50 / floor.floorMs },
      });
    }

    // The mix's charges take sessions its creates keep adding; a full batch is ready before it starts.
    for (const scenario of runnable.filter((s) => s.consumes && THROUGHPUT_MIX.some((m) => m.scenario === s.label))) {
      builders.set(scenario.label, await scenario.prepare!(ctx, settings.consumingRequests));
    }
    log('webhook timeliness, idle');
    const receiver = await attempt(() => startTimeliness(env));
    const idle = 'notMeasured' in receiver ? receiver : await attempt(() => receiver.round(settings.timelinessSamples));

    log(`throughput of the mix for ${settings.throughputSeconds} s, with a timeliness round inside it`);
    let loadEnded = false;
    const throughputRun = measureThroughput(env, builders, {
      connections: settings.throughputConnections,
      durationSeconds: settings.throughputSeconds,
      warmupShare: settings.warmupShare,
      profilePath: join(RESULTS_DIR, 'throughput.cpuprofile'),
    }).finally(() => (loadEnded = true));
    await sleep(settings.throughputSeconds * 1000 * settings.warmupShare);
    const underLoad = 'notMeasured' in receiver ? receiver : await attempt(() => receiver.round(settings.timelinessSamples));
    const timeliness = { idle, underLoad, outlastedLoad: loadEnded };
    const throughput = await throughputRun;
    if (!('notMeasured' in receiver)) await receiver.stop();

    log(`cold start: bundling and loading each function ${settings.coldStartSpawns} times`);
    const coldStart = await measureColdStarts(join(RESULTS_DIR, 'bundles'), settings.coldStartSpawns);
    log(`cold start: each function's Init Duration under aws-lambda-ric, ${settings.coldStartSpawns} spawns`);
    const ricInit = await attempt(() => measureRicInit(join(RESULTS_DIR, 'bundles'), coldStart.functions.map((f) => f.routeId), settings.coldStartSpawns));

    const measured = new Map<string, MeasuredRoute>();
    for (const x of reports) {
      if (x.roundTrips && x.latency) measured.set(x.label, { steady: x.roundTrips.steady, workers: x.roundTrips.workers, workersMs: x.roundTrips.workersMs, p50Ms: x.latency.p50 });
    }
    if (!('notMeasured' in timedExpiry)) measured.set(TIMED_EXPIRY, { steady: [], p50Ms: 0, ...timedExpiry });

    result = {
      startedAt,
      finishedAt: new Date().toISOString(),
      machine: {
        cpus: cpus()[0]?.model ?? 'unknown CPU',
        cores: cpus().length,
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        platform: platform(),
        loadAverage,
      },
      settings,
      routes: reports,
      timedExpiry,
      coldStart,
      ricInit,
      throughput,
      timeliness,
      cost: costPer1000Sessions(measured),
    };
  } finally {
    await env.stop();
  }

  const file = join(RESULTS_DIR, `${startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2));
  console.log(formatReport(result));
  console.log(`\nFull result: ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
