import type { CallCount } from '../shared/observability/call-counter.ts';
import type { ColdStartResult } from './cold-start.ts';
import type { RicInitResult } from './ric-init.ts';
import type { LifecycleCost } from './cost-model.ts';
import type { LoadResult } from './http-load.ts';
import type { RawRoundTrips, StorageFloor } from './raw-round-trips.ts';
import type { BackgroundWork, RouteRoundTrips } from './round-trips.ts';
import type { BenchSettings } from './bench-settings.ts';
import type { ThroughputResult } from './throughput.ts';
import type { TimelinessRound } from './timeliness.ts';

export const TARGETS = { latencyRatio: 1.3, bundleBytes: 250 * 1024, loadRatio: 1.5, initRatio: 1.3, timelinessP99Ms: 1000, usdPer1000Sessions: 0.02 } as const;

/** A measure that could not be taken, and why. */
export type NotMeasured = { notMeasured: string };

export interface RouteReport {
  label: string;
  routeId: string | null;
  notMeasured?: string;
  roundTrips?: RouteRoundTrips;
  latency?: LoadResult;
  /** Calls per request during the latency run: above the steady count when concurrent requests retry (transaction conflicts). */
  underLoad?: CallCount[];
  /** The raw round trips measured right after this route, which its floor is made of. */
  raw?: RawRoundTrips;
  floor?: StorageFloor & { ratio: number };
}

/** Everything one run measured: what is written to the JSON file. */
export interface BenchResult {
  startedAt: string;
  finishedAt: string;
  machine: { cpus: string; cores: number; memoryGiB: number; node: string; platform: string; loadAverage: number[] };
  settings: BenchSettings;
  routes: RouteReport[];
  /** The workers' calls of a session left open until expiresAt, which no request sets off. */
  timedExpiry: BackgroundWork | NotMeasured;
  coldStart: ColdStartResult;
  /** Init Duration under aws-lambda-ric; absent in results written before it was measured. */
  ricInit?: RicInitResult | NotMeasured;
  throughput: ThroughputResult;
  timeliness: {
    idle: TimelinessRound | NotMeasured;
    /** Taken while the throughput mix runs. */
    underLoad: TimelinessRound | NotMeasured;
    /** The loaded round ended after the mix: its tail ran without load. */
    outlastedLoad: boolean;
  };
  cost: LifecycleCost[];
}

function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

const ms = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(2));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const calls = (list: CallCount[] | undefined) =>
  !list ? '-' : list.length === 0 ? 'none' : list.map((c) => `${+c.calls.toFixed(2)}× ${c.service === 'DynamoDB' ? '' : `${c.service} `}${c.command}`).join(', ');

/** The stdout report: one titled table per section of issue 8, each with its target verdict. */
export function formatReport(r: BenchResult): string {
  const out: string[] = [];
  const measured = r.routes.filter((x) => x.latency && x.floor);
  const skipped = r.routes.filter((x) => x.notMeasured);

  out.push(`# Benchmark ${r.startedAt} (${r.settings.quick ? 'QUICK' : 'full'} run)`);
  out.push(`${r.machine.cpus} × ${r.machine.cores}, ${r.machine.memoryGiB} GiB, Node.js ${r.machine.node}, load average at start ${r.machine.loadAverage.map((l) => l.toFixed(2)).join(' ')}`);

  out.push(`\n## 1. Per-route latency at ${r.settings.connections} connections (ms; target p50 / storage floor <= ${TARGETS.latencyRatio})`);
  out.push(
    table(
      ['operation', 'p50', 'p99', 'req/s', 'errors', 'floor (sum of raw p50s)', 'needs', 'ratio', 'target'],
      [
        ...measured.map((x) => [
          x.label,
          ms(x.latency!.p50),
          ms(x.latency!.p99),
          x.latency!.requestsPerSecond.toFixed(0),
          x.latency!.errors,
          ms(x.floor!.floorMs),
          x.floor!.needs + (x.floor!.unmapped.length ? ` (+ ${x.floor!.unmapped.join(', ')}, no baseline)` : ''),
          x.floor!.ratio.toFixed(2),
          verdict(x.floor!.ratio <= TARGETS.latencyRatio),
        ]),
        ...skipped.map((x) => [x.label, '-', '-', '-', '-', '-', `not measured: ${x.notMeasured}`, '-', '-']),
      ],
    ),
  );
  out.push(`\nRaw DynamoDB round trips of the kinds and sizes each route needs, measured right after it, same DynamoDB Local, same client, same concurrency (ms, p50 / p99):`);
  out.push(
    table(
      ['after', 'raw operations', 'errors'],
      measured.map((x) => {
        const raw = Object.entries(x.raw!);
        return [x.label, raw.map(([name, stats]) => `${name} ${ms(stats.p50)} / ${ms(stats.p99)}`).join(', '), raw.reduce((n, [, stats]) => n + stats.errors, 0)];
      }),
    ),
  );

  out.push('\n## 2. Round trips per request (AWS SDK calls counted by shared/observability/call-counter.ts)');
  out.push(
    table(
      ['operation', 'cold (caches empty)', `steady (mean of ${r.settings.countSamples})`, `under load (${r.settings.connections} connections)`, 'workers, per request (steady)', 'workers ms', 'capacity units, steady'],
      [
        ...r.routes.map((x) => [
          x.label,
          x.notMeasured ? `not measured: ${x.notMeasured}` : calls(x.roundTrips?.cold),
          calls(x.roundTrips?.steady),
          calls(x.underLoad),
          calls(x.roundTrips?.workers),
          ms(x.roundTrips?.workersMs),
          x.roundTrips ? x.roundTrips.steady.map((c) => `${c.command} ${+c.capacityUnits.toFixed(2)}`).join(', ') : '-',
        ]),
        'notMeasured' in r.timedExpiry
          ? ['session reaches expiresAt (no request)', `not measured: ${r.timedExpiry.notMeasured}`, '-', '-', '-', '-', '-']
          : ['session reaches expiresAt (no request)', '-', '-', '-', calls(r.timedExpiry.workers), ms(r.timedExpiry.workersMs), '-'],
      ],
    ),
  );
  out.push(
    'Reasons for each call: docs/round-trips.md. KMS, SQS and Scheduler are in-process stand-ins in the sandbox, counted as the AWS calls they replace, ' +
      'with "Lambda <worker>" for each worker invocation (bench/stand-in-counting.ts); workers ms: drain after the request minus an idle drain.',
  );

  out.push(...formatColdStart(r.coldStart, r.ricInit));

  const t = r.throughput;
  out.push(`\n## 4. Throughput of the mix at ${r.settings.throughputConnections} connections for ${r.settings.throughputSeconds} s (target: zero errors)`);
  out.push(`mix: ${t.mix.map((m) => `${m.scenario} ×${m.weight}`).join(', ')}${t.missing.length ? `; not in the mix yet: ${t.missing.join(', ')}` : ''}`);
  out.push(
    table(
      ['req/s', 'p50', 'p99', 'max', 'errors', 'statuses', 'CPU: sandbox node', 'CPU: DynamoDB Local', 'zero errors'],
      [[t.load.requestsPerSecond.toFixed(0), ms(t.load.p50), ms(t.load.p99), ms(t.load.max), t.load.errors, JSON.stringify(t.load.statusCounts), `${t.cpu.node.toFixed(2)} cores`, t.cpu.dynamoLocal === null ? '-' : `${t.cpu.dynamoLocal.toFixed(2)} cores`, verdict(t.load.errors === 0)]],
    ),
  );
  out.push('CPU profile of the bench process (sandbox + load generator), self time by area:');
  out.push(table(['area', 'self ms', 'share'], t.profile.topAreas.map((e) => [e.name, e.selfMs.toFixed(0), `${(e.share * 100).toFixed(1)}%`])));
  out.push('Top functions by self time:');
  out.push(table(['function', 'self ms', 'share'], t.profile.topFunctions.map((e) => [e.name, e.selfMs.toFixed(0), `${(e.share * 100).toFixed(1)}%`])));

  out.push(`\n## 5. Webhook timeliness on the sandbox clock, to a receiver on 127.0.0.1 on its own thread (ms late; target p99 < ${TARGETS.timelinessP99Ms} ms)`);
  const rounds = [
    ['idle', r.timeliness.idle],
    [`under the throughput mix${r.timeliness.outlastedLoad ? ' (outlasted it: its tail ran without load)' : ''}`, r.timeliness.underLoad],
  ] as const;
  out.push(
    table(
      ['round', 'event', 'p50', 'p99', 'max', 'received', 'missing', 'target'],
      rounds.flatMap(([round, x]) =>
        'notMeasured' in x
          ? [[round, `not measured: ${x.notMeasured}`, '-', '-', '-', '-', '-', '-']]
          : Object.entries(x).map(([event, s]) => [round, event, ms(s.p50Ms), ms(s.p99Ms), ms(s.maxMs), s.received, s.missing, verdict(s.missing === 0 && s.p99Ms < TARGETS.timelinessP99Ms)]),
      ),
    ),
  );

  out.push(`\n## 6. Cost per 1,000 sessions in AWS us-east-1 (prices: bench/prices.ts; target < ${TARGETS.usdPer1000Sessions * 100} US cents)`);
  for (const c of r.cost) {
    out.push(`${c.lifecycle}:`);
    out.push(
      table(
        ['lifecycle step', 'US cents / 1,000 sessions', 'by item (cents)'],
        c.steps.map((s) => [
          s.step,
          s.totalUsdPer1000 === null ? '-' : (s.totalUsdPer1000 * 100).toFixed(3),
          s.usdPer1000 === null ? `not measured: ${s.missing}` : Object.entries(s.usdPer1000).map(([k, v]) => `${k} ${(v * 100).toFixed(3)}`).join(', '),
        ]),
      ),
    );
    // Missing steps can only add cost: measured steps over the target already miss it.
    const over = c.measuredUsdPer1000 >= TARGETS.usdPer1000Sessions;
    out.push(
      `${c.lifecycle}, measured steps: ${(c.measuredUsdPer1000 * 100).toFixed(3)} US cents per 1,000 sessions` +
        (c.complete || over ? ` (${verdict(!over)}${c.complete ? '' : ', with steps still missing'})` : ' (INCOMPLETE: a step above is missing, so the target is not judged yet)'),
    );
  }
  return out.join('\n');
}

/** Sections 3 and 3b: each function's bundle and load time, and its Init Duration under aws-lambda-ric. */
export function formatColdStart(cs: ColdStartResult, ri: RicInitResult | NotMeasured | undefined): string[] {
  const out: string[] = [];
  out.push(`\n## 3. Cold start (bundled as infra/constructs/service-function.ts does, the Powertools layer's packages loaded from the built layer; targets <= ${kb(TARGETS.bundleBytes)}, load ratio <= ${TARGETS.loadRatio})`);
  out.push(
    table(
      ['bundle', 'minified', 'size target', 'load ms (median)', 'load ratio', 'load target', 'heaviest parts'],
      [
        [`baseline: ${cs.baseline.name}`, kb(cs.baseline.bytes), '-', ms(cs.baseline.loadMs), '1.00', '-', cs.baseline.heaviest.slice(0, 3).map((h) => `${h.source} ${kb(h.bytes)}`).join(', ')],
        ...cs.functions.map((f) => [
          f.routeId,
          kb(f.bytes),
          verdict(f.bytes <= TARGETS.bundleBytes),
          ms(f.loadMs),
          f.loadRatio.toFixed(2),
          verdict(f.loadRatio <= TARGETS.loadRatio),
          f.heaviest.slice(0, 4).map((h) => `${h.source} ${kb(h.bytes)}`).join(', '),
        ]),
      ],
    ),
  );

  out.push(`\n## 3b. Init Duration under aws-lambda-ric (process start to the first /next, as Lambda's REPORT line; median of the spawns; target ratio <= ${TARGETS.initRatio})`);
  if (!ri) out.push('not measured in this result');
  else if ('notMeasured' in ri) out.push(`not measured: ${ri.notMeasured}`);
  else {
    out.push(
      table(
        ['bundle', 'init ms (median)', 'init ratio', 'init target'],
        [[`baseline: ${ri.baseline.name}`, ms(ri.baseline.initMs), '1.00', '-'], ...ri.functions.map((f) => [f.routeId, ms(f.initMs), f.initRatio.toFixed(2), verdict(f.initRatio <= TARGETS.initRatio)])],
      ),
    );
  }
  return out;
}
