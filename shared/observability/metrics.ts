/**
 * The service's business metrics, as CloudWatch embedded metric format (EMF) lines through Powertools Metrics: the
 * log line is the metric, so emitting costs no API call. The stack's dashboard and alarms (infra/constructs/
 * monitoring.ts) read the same names and dimensions from here.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricUnit as Unit } from '@aws-lambda-powertools/metrics/types';
import type { GatewayId, OperationClass } from '../domain/merchant.ts';
import type { DeliveryState } from '../webhooks/delivery.ts';

export const SERVICE_NAME = 'svc-payments';
/** Set by the stack on every function (one namespace per stage); without it nothing is emitted (sandbox, tests). */
export const METRICS_NAMESPACE_VARIABLE = 'POWERTOOLS_METRICS_NAMESPACE';
export const metricsNamespaceFor = (stage: string) => `${SERVICE_NAME}/${stage}`;

export const METRIC = {
  /** Count, dimension outcome: what the bank answered a charge (or that it could not be reached). */
  charges: 'Charges',
  /** Count, dimension outcome: each webhook delivery attempt. */
  webhookDeliveries: 'WebhookDeliveries',
  /** Count: sessions closed by the expiry worker. */
  expiries: 'SessionExpiries',
  /** Seconds between a session's expiresAt and the moment the expiry worker closed it. */
  expiryLateness: 'ExpiryLatenessSeconds',
  /** Count, dimension rateClass: requests refused with 429 by the per-merchant limits. */
  rateLimitRejections: 'RateLimitRejections',
  /** Count, dimension worker: records a worker gave up on and parked for replay (shared/background/parked-records.ts). */
  parkedRecords: 'ParkedRecords',
} as const;

/** A gateway's answer to a charge, or `unavailable` when it gave none (connection refused, 5xx). */
export const CHARGE_OUTCOMES = ['approved', 'declined', 'failed', 'otp_required', 'unknown', 'unavailable'] as const;
export type ChargeOutcome = (typeof CHARGE_OUTCOMES)[number];
/** The outcomes that are the bank's fault, not the buyer's: what the bank error rate alarm counts. */
export const BANK_ERROR_OUTCOMES: readonly ChargeOutcome[] = ['failed', 'unknown', 'unavailable'];

/** A delivery's state after an attempt: succeeded, retrying (another attempt is scheduled), failed (retries spent). */
export const WEBHOOK_DELIVERY_OUTCOMES = ['succeeded', 'retrying', 'failed'] as const satisfies readonly DeliveryState[];
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

/** What the handlers record; each call is one EMF line with its own dimensions, so outcomes never mix in one flush. */
export interface ServiceMetrics {
  charge(outcome: ChargeOutcome, gateway: GatewayId): void;
  webhookDelivery(outcome: WebhookDeliveryOutcome): void;
  /** A session the expiry worker closed, `latenessSeconds` after its expiresAt. */
  expiry(latenessSeconds: number): void;
  rateLimitRejection(rateClass: OperationClass): void;
  /** A stream record or queue message a worker parked after its retries. */
  parkedRecord(worker: string): void;
}

/**
 * Powertools-backed metrics in `namespace`, every line with the dimension service=svc-payments.
 *
 * @example
 * const metrics = emfMetrics('svc-payments/dev');
 * metrics.charge('approved', 'bank_direct'); // prints one EMF line: Charges=1, outcome=approved
 */
export function emfMetrics(namespace: string): ServiceMetrics {
  const metrics = new Metrics({ namespace, serviceName: SERVICE_NAME });
  const emit = (name: string, unit: Unit, value: number, dimensions: Record<string, string> = {}, metadata: Record<string, string> = {}) => {
    const single = metrics.singleMetric();
    for (const [key, dimensionValue] of Object.entries(dimensions)) single.addDimension(key, dimensionValue);
    // Metadata is searchable in the log line without multiplying metrics (a dimension per gateway would).
    for (const [key, metadataValue] of Object.entries(metadata)) single.addMetadata(key, metadataValue);
    single.addMetric(name, unit, value);
  };
  return {
    charge: (outcome, gateway) => emit(METRIC.charges, MetricUnit.Count, 1, { outcome }, { gateway }),
    webhookDelivery: (outcome) => emit(METRIC.webhookDeliveries, MetricUnit.Count, 1, { outcome }),
    expiry: (latenessSeconds) => {
      emit(METRIC.expiries, MetricUnit.Count, 1);
      emit(METRIC.expiryLateness, MetricUnit.Seconds, Math.max(0, latenessSeconds));
    },
    rateLimitRejection: (rateClass) => emit(METRIC.rateLimitRejections, MetricUnit.Count, 1, { rateClass }),
    parkedRecord: (worker) => emit(METRIC.parkedRecords, MetricUnit.Count, 1, { worker }),
  };
}

/** Records nothing: where no namespace is configured (the sandbox, tests), metrics have nowhere to go. */
const silentMetrics: ServiceMetrics = { charge: () => {}, webhookDelivery: () => {}, expiry: () => {}, rateLimitRejection: () => {}, parkedRecord: () => {} };

/**
 * EMF metrics when the stack configured a namespace, silent otherwise.
 *
 * @example
 * const metrics = metricsFromEnvironment(); // POWERTOOLS_METRICS_NAMESPACE=svc-payments/prod in AWS
 */
export function metricsFromEnvironment(env: NodeJS.ProcessEnv = process.env): ServiceMetrics {
  const namespace = env[METRICS_NAMESPACE_VARIABLE];
  return namespace ? emfMetrics(namespace) : silentMetrics;
}
