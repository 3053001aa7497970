import { POLL_MS } from '../checkout/src/session-poller.ts';
import type { CallCount } from '../shared/observability/call-counter.ts';
import { PRICES_USD, type PriceItem } from './prices.ts';
import { LAMBDA } from './stand-in-counting.ts';

/**
 * infra/constructs/service-function.ts: every function has 256 MB on arm64, the API's and the workers' alike
 * (infra/constructs/worker-function.ts sets no memory of its own).
 */
const LAMBDA_MEMORY_GB = 256 / 1024;
const DYNAMO_READ_COMMANDS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const SERVICE_PRICE: Record<string, PriceItem> = { KMS: 'kmsRequest', SQS: 'sqsRequest', [LAMBDA]: 'lambdaRequest' };
/** Scheduler bills the invocations of schedules; its API calls (CreateSchedule, DeleteSchedule) are not billed. */
const SCHEDULER_BILLED = 'Invocation';

interface LifecycleStep {
  step: string;
  /** Priced from this scenario's measured calls. */
  scenario?: string;
  /** How many times the API call is made in one session's life; 1 when absent. */
  times?: number;
  /** Requests to other services the step makes besides its API calls. */
  alsoRequests?: Partial<Record<PriceItem, number>>;
  /** Prices the workers' calls the lifecycle's other steps set off, instead of an API call. */
  workers?: true;
  /** Background work no request sets off, measured apart under this label, added to the workers step. */
  alsoBackground?: string;
}

/**
 * A buyer is assumed to spend a minute on the checkout with the page in front: it reads its session once when it
 * opens, then every POLL_MS while visible (docs/checkout.md); it stops at the charge's answer.
 */
const CHECKOUT_READS = 1 + 60_000 / POLL_MS;

/**
 * Measured per request in bench section 2 (workers drained after each): the expiry schedule's planning (Lambda,
 * Scheduler), and the webhook of the session's close (session.expired or charge.approved) dispatched and
 * delivered to the merchant's one endpoint (bench-environment.ts: a local receiver that answers 200): the
 * delivery's write, SQS send, receive and delete, the sendWebhooks invocation and its KMS call. Timed expiry
 * (hand-over, expireSessions) does not happen for sessions closed before expiresAt.
 */
const WORKERS: LifecycleStep = { step: 'workers the steps above set off (expiry schedule, webhook dispatch and delivery to one endpoint)', workers: true };

/** The label run.ts measures a session's timed expiry under (bench/round-trips.ts countTimedExpiry). */
export const TIMED_EXPIRY = 'session reaches expiresAt';

/** A session's life, in the order it happens: a paid one ends with its charge, an unpaid one with expire. */
const SESSION_LIFECYCLES: Record<string, LifecycleStep[]> = {
  'paid session': [
    { step: 'merchant creates the session', scenario: 'create session' },
    { step: 'merchant reads it once', scenario: 'get session' },
    // The page's HTML, script and stylesheet come from CloudFront: three requests on a first visit.
    {
      step: `buyer on the checkout for a minute (page on CloudFront; ${CHECKOUT_READS} session reads: on opening, then every ${POLL_MS / 1000} s)`,
      scenario: 'checkout page reads the session',
      times: CHECKOUT_READS,
      alsoRequests: { cloudFrontHttpsRequest: 3 },
    },
    { step: 'buyer pays (checkout charge, approved)', scenario: 'checkout charge (approving card)' },
    WORKERS,
  ],
  'unpaid session, expired by the merchant': [
    { step: 'merchant creates the session', scenario: 'create session' },
    { step: 'merchant reads it once', scenario: 'get session' },
    { step: 'merchant expires it', scenario: 'expire session' },
    WORKERS,
  ],
  'unpaid session, expired at expiresAt': [
    { step: 'merchant creates the session', scenario: 'create session' },
    { step: 'merchant reads it once', scenario: 'get session' },
    {
      step: 'workers: expiry schedule, its firing, hand-over, expireSessions, webhook dispatch and delivery to one endpoint',
      workers: true,
      alsoBackground: TIMED_EXPIRY,
    },
  ],
};

/** An API route by scenario label, or background work alone (TIMED_EXPIRY: no request, so steady is empty). */
export interface MeasuredRoute {
  /** Calls per request, warm caches. */
  steady: CallCount[];
  /** The workers' calls per request, Lambda invocations included (bench/stand-in-counting.ts). */
  workers: CallCount[];
  /** The workers' time per request (RouteRoundTrips.workersMs), an upper bound of their billed duration. */
  workersMs: number;
  /** Used as the function's billed duration: an upper bound, since it includes the HTTP hop to the sandbox. */
  p50Ms: number;
}

export interface CostStep {
  step: string;
  /** Cost of this step for 1,000 sessions, by price item; null when not measured. */
  usdPer1000: Partial<Record<PriceItem, number>> | null;
  totalUsdPer1000: number | null;
  missing?: string;
}

export interface LifecycleCost {
  lifecycle: string;
  steps: CostStep[];
  /** Sum of the measured steps only. */
  measuredUsdPer1000: number;
  complete: boolean;
}

type Cost = Partial<Record<PriceItem, number>>;
const add = (cost: Cost, item: PriceItem, usd: number) => (cost[item] = (cost[item] ?? 0) + usd);
const gbSeconds = (billedMs: number) => (billedMs / 1000) * LAMBDA_MEMORY_GB * PRICES_USD.lambdaArm64GbSecond;

/** What counted calls cost: DynamoDB units, SQS, KMS and Scheduler requests, Lambda invocations (requests only). */
function callsCost(calls: CallCount[], cost: Cost = {}): Cost {
  for (const call of calls) {
    if (call.service === 'DynamoDB') {
      // DynamoDB Local reports units as for plain calls; AWS bills transactional ones twice.
      const units = call.capacityUnits * (call.command.startsWith('Transact') ? 2 : 1);
      if (DYNAMO_READ_COMMANDS.has(call.command)) add(cost, 'dynamoReadRequestUnit', units * PRICES_USD.dynamoReadRequestUnit);
      else add(cost, 'dynamoWriteRequestUnit', units * PRICES_USD.dynamoWriteRequestUnit);
    } else if (call.service === 'Scheduler') {
      if (call.command === SCHEDULER_BILLED) add(cost, 'schedulerInvocation', call.calls * PRICES_USD.schedulerInvocation);
    } else if (SERVICE_PRICE[call.service]) {
      const item = SERVICE_PRICE[call.service]!;
      add(cost, item, call.calls * PRICES_USD[item]);
    }
  }
  return cost;
}

/** What one API request costs in AWS, per price item, from its counted calls. */
function apiRequestCost({ steady, p50Ms }: MeasuredRoute): Cost {
  return callsCost(steady, {
    apiGatewayRestRequest: PRICES_USD.apiGatewayRestRequest,
    lambdaRequest: PRICES_USD.lambdaRequest,
    // Lambda bills each invocation's duration rounded up to the millisecond.
    lambdaArm64GbSecond: gbSeconds(Math.ceil(p50Ms)),
  });
}

/** What the workers a request set off cost: their calls, and their time shared evenly between their invocations. */
function workersCost({ workers, workersMs }: MeasuredRoute): Cost {
  const cost = callsCost(workers);
  const invocations = workers.filter((c) => c.service === LAMBDA).reduce((n, c) => n + c.calls, 0);
  if (invocations > 0) add(cost, 'lambdaArm64GbSecond', gbSeconds(invocations * Math.ceil(workersMs / invocations)));
  return cost;
}

const times = (cost: Cost, n: number) => Object.fromEntries(Object.entries(cost).map(([k, usd]) => [k, usd * n])) as Cost;
const sum = (costs: Cost[]) => costs.reduce<Cost>((total, c) => (Object.entries(c).forEach(([k, usd]) => add(total, k as PriceItem, usd)), total), {});

/** Cost per 1,000 sessions of each lifecycle, from the routes measured by scenario label. */
export function costPer1000Sessions(measured: Map<string, MeasuredRoute>): LifecycleCost[] {
  return Object.entries(SESSION_LIFECYCLES).map(([lifecycle, lifecycleSteps]) => {
    const apiSteps = lifecycleSteps.filter((s) => s.scenario);
    const steps = lifecycleSteps.map((s): CostStep => {
      const needed = s.workers ? [...apiSteps.map((x) => x.scenario!), ...(s.alsoBackground ? [s.alsoBackground] : [])] : [s.scenario!];
      const absent = needed.find((label) => !measured.get(label));
      if (absent) return { step: s.step, usdPer1000: null, totalUsdPer1000: null, missing: `"${absent}" not measured` };
      let cost: Cost;
      if (s.workers) {
        const background = s.alsoBackground ? [workersCost(measured.get(s.alsoBackground)!)] : [];
        cost = sum([...apiSteps.map((x) => times(workersCost(measured.get(x.scenario!)!), x.times ?? 1)), ...background]);
      }
      else {
        cost = times(apiRequestCost(measured.get(s.scenario!)!), s.times ?? 1);
        for (const [item, requests] of Object.entries(s.alsoRequests ?? {}) as [PriceItem, number][]) add(cost, item, requests * PRICES_USD[item]);
      }
      const per1000 = times(cost, 1000);
      return { step: s.step, usdPer1000: per1000, totalUsdPer1000: Object.values(per1000).reduce((a, b) => a + b, 0) };
    });
    return {
      lifecycle,
      steps,
      measuredUsdPer1000: steps.reduce((total, s) => total + (s.totalUsdPer1000 ?? 0), 0),
      complete: steps.every((s) => s.usdPer1000 !== null),
    };
  });
}
