import type { CallCount } from '../shared/observability/call-counter.ts';
import { PRICES_USD, type PriceItem } from './prices.ts';

/** infra/constructs/service-function.ts: every API function has 256 MB on arm64. */
const LAMBDA_MEMORY_GB = 256 / 1024;
const DYNAMO_READ_COMMANDS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
const SERVICE_PRICE: Record<string, PriceItem> = { KMS: 'kmsRequest', SQS: 'sqsRequest', Scheduler: 'schedulerInvocation' };

interface LifecycleStep {
  step: string;
  /** Priced from this scenario's measured calls. */
  scenario?: string;
  /** Why the step cannot be priced yet. */
  missing?: string;
  /** How many times the API call is made in one session's life; 1 when absent. */
  times?: number;
  /** Requests to other services the step makes besides its API calls. */
  alsoRequests?: Partial<Record<PriceItem, number>>;
}

/** The checkout page reads its session every 3 s (README, Checkout); a buyer is assumed to spend a minute on it. */
const CHECKOUT_READS = 60 / 3;

const WORKERS: LifecycleStep = {
  step: 'workers: expiry schedule, session.expired / charge.approved webhooks',
  missing: "the sandbox runs the workers over stand-ins (queues in memory, schedules in the table), whose calls are not the AWS calls (SQS, Scheduler, the workers' Lambda invocations) to price",
};

/** A session's life, in the order it happens: a paid one ends with its charge, an unpaid one with expire. */
const SESSION_LIFECYCLES: Record<string, LifecycleStep[]> = {
  'paid session': [
    { step: 'merchant creates the session', scenario: 'create session' },
    { step: 'merchant reads it once', scenario: 'get session' },
    // The page's HTML, script and stylesheet come from CloudFront: three requests on a first visit.
    {
      step: `buyer on the checkout for a minute (page on CloudFront, ${CHECKOUT_READS} session reads)`,
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
};

export interface MeasuredRoute {
  /** Calls per request, warm caches. */
  steady: CallCount[];
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

/** What one API request costs in AWS, per price item, from its counted calls. */
function apiRequestCost({ steady, p50Ms }: MeasuredRoute): Partial<Record<PriceItem, number>> {
  const cost: Partial<Record<PriceItem, number>> = {
    apiGatewayRestRequest: PRICES_USD.apiGatewayRestRequest,
    lambdaRequest: PRICES_USD.lambdaRequest,
    // Lambda bills each invocation's duration rounded up to the millisecond.
    lambdaArm64GbSecond: (Math.ceil(p50Ms) / 1000) * LAMBDA_MEMORY_GB * PRICES_USD.lambdaArm64GbSecond,
  };
  const add = (item: PriceItem, usd: number) => (cost[item] = (cost[item] ?? 0) + usd);
  for (const call of steady) {
    if (call.service === 'DynamoDB') {
      // DynamoDB Local reports units as for plain calls; AWS bills transactional ones twice.
      const units = call.capacityUnits * (call.command.startsWith('Transact') ? 2 : 1);
      if (DYNAMO_READ_COMMANDS.has(call.command)) add('dynamoReadRequestUnit', units * PRICES_USD.dynamoReadRequestUnit);
      else add('dynamoWriteRequestUnit', units * PRICES_USD.dynamoWriteRequestUnit);
    } else if (SERVICE_PRICE[call.service]) {
      const item = SERVICE_PRICE[call.service]!;
      add(item, call.calls * PRICES_USD[item]);
    }
  }
  return cost;
}

/** Cost per 1,000 sessions of each lifecycle, from the routes measured by scenario label. */
export function costPer1000Sessions(measured: Map<string, MeasuredRoute>): LifecycleCost[] {
  return Object.entries(SESSION_LIFECYCLES).map(([lifecycle, lifecycleSteps]) => {
    const steps = lifecycleSteps.map((s): CostStep => {
      const route = s.scenario ? measured.get(s.scenario) : undefined;
      if (!route) return { step: s.step, usdPer1000: null, totalUsdPer1000: null, missing: s.missing ?? `scenario "${s.scenario}" not measured` };
      const cost = Object.fromEntries(Object.entries(apiRequestCost(route)).map(([k, usd]) => [k, usd * (s.times ?? 1)])) as Partial<Record<PriceItem, number>>;
      for (const [item, requests] of Object.entries(s.alsoRequests ?? {}) as [PriceItem, number][]) cost[item] = (cost[item] ?? 0) + requests * PRICES_USD[item];
      const per1000 = Object.fromEntries(Object.entries(cost).map(([k, usd]) => [k, usd * 1000]));
      return { step: s.step, usdPer1000: per1000, totalUsdPer1000: Object.values(per1000).reduce((a, b) => a + b, 0) };
    });
    return {
      lifecycle,
      steps,
      measuredUsdPer1000: steps.reduce((sum, s) => sum + (s.totalUsdPer1000 ?? 0), 0),
      complete: steps.every((s) => s.usdPer1000 !== null),
    };
  });
}
