import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { OPERATION_CLASSES } from '../../shared/domain/merchant.ts';
import {
  BANK_ERROR_OUTCOMES,
  CHARGE_OUTCOMES,
  METRIC,
  metricsNamespaceFor,
  SERVICE_NAME,
  WEBHOOK_DELIVERY_OUTCOMES,
} from '../../shared/observability/metrics.ts';
import { workerIds, workers } from '../../shared/workers.ts';
import type { StageConfig } from '../stage-config.ts';

/** Thresholds of the alarms; docs/runbook.md says what each means and what to do. */
export const ALARM_THRESHOLDS = {
  /** Percent of API requests answered 5xx, in 3 of 5 minutes. */
  api5xxPercent: 1,
  /** p99 API latency, ms, three 5-minute periods in a row: a charge waits for its bank up to 8 s (GATEWAY_TIMEOUT). */
  apiP99LatencyMs: 6_000,
  /** Latest expiry, seconds after expiresAt, in two 5-minute periods in a row (docs: "at most a few seconds late"). */
  expiryLatenessSeconds: 60,
  /** Percent of charges the bank failed, timed out or refused to answer, in 3 of 5 five-minute periods... */
  bankErrorPercent: 10,
  /** ...counted only once this many charges were made in the period, so one failure of two does not page anyone. */
  bankErrorMinimumCharges: 10,
} as const;

export interface MonitoringProps {
  config: StageConfig;
  apiStage: Stage;
  /** Alarms made elsewhere (the work queues' dead-letter alarms) that page on-call too. */
  alarms: Alarm[];
}

/**
 * On-call for a stage: an SNS topic (with the `alarmEmail` context address subscribed, if given), the alarms that
 * page it, and one dashboard of the API, the business metrics (shared/observability/metrics.ts) and the queues.
 *
 * @example
 * new Monitoring(this, 'Monitoring', { config, apiStage: api.restApi.deploymentStage, alarms: [queue.deadLetterAlarm] });
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Record<'api5xxRate' | 'apiP99Latency' | 'expiryLateness' | 'bankErrorRate' | 'parkedRecords', Alarm>;

  constructor(scope: Construct, id: string, { config, apiStage, alarms }: MonitoringProps) {
    super(scope, id);
    const namespace = metricsNamespaceFor(config.stage);
    const business = (metricName: string, dimensions: Record<string, string> = {}, statistic = 'Sum') =>
      new Metric({ namespace, metricName, dimensionsMap: { service: SERVICE_NAME, ...dimensions }, statistic, period: Duration.minutes(5) });
    const charges = Object.fromEntries(CHARGE_OUTCOMES.map((outcome) => [outcome, business(METRIC.charges, { outcome })]));
    const sumOf = (names: readonly string[]) => names.map((name) => `FILL(${name}, 0)`).join(' + ');

    this.topic = new Topic(this, 'OnCall', { displayName: `svc-payments ${config.stage} alarms`, enforceSSL: true });
    if (config.alarmEmail) this.topic.addSubscription(new EmailSubscription(config.alarmEmail));

    const minute = { period: Duration.minutes(1) };
    // Every stream and queue worker parks what it cannot handle (shared/background/parked-records.ts): one sum of all.
    const recordWorkers = workerIds.filter((id) => ['stream', 'queue'].includes(workers[id].trigger.kind));
    const parked = Object.fromEntries(recordWorkers.map((worker, index) => [`w${index}`, business(METRIC.parkedRecords, { worker })]));
    this.alarms = {
      api5xxRate: new Alarm(this, 'Api5xxRate', {
        alarmDescription: `API answers 5xx to more than ${ALARM_THRESHOLDS.api5xxPercent}% of requests`,
        metric: new MathExpression({
          expression: 'IF(requests > 0, 100 * errors / requests, 0)',
          usingMetrics: { errors: apiStage.metricServerError({ ...minute, statistic: 'Sum' }), requests: apiStage.metricCount({ ...minute, statistic: 'SampleCount' }) },
          label: 'API 5xx %',
          ...minute,
        }),
        threshold: ALARM_THRESHOLDS.api5xxPercent,
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      apiP99Latency: new Alarm(this, 'ApiP99Latency', {
        alarmDescription: `API p99 latency above ${ALARM_THRESHOLDS.apiP99LatencyMs} ms`,
        metric: apiStage.metricLatency({ statistic: 'p99', period: Duration.minutes(5) }),
        threshold: ALARM_THRESHOLDS.apiP99LatencyMs,
        evaluationPeriods: 3,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      expiryLateness: new Alarm(this, 'ExpiryLateness', {
        alarmDescription: `A session expired more than ${ALARM_THRESHOLDS.expiryLatenessSeconds} s after its expiresAt`,
        metric: business(METRIC.expiryLateness, {}, 'Maximum'),
        threshold: ALARM_THRESHOLDS.expiryLatenessSeconds,
        evaluationPeriods: 2,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      bankErrorRate: new Alarm(this, 'BankErrorRate', {
        alarmDescription: `Banks failed, timed out or did not answer more than ${ALARM_THRESHOLDS.bankErrorPercent}% of charges`,
        metric: new MathExpression({
          expression: `IF((${sumOf(CHARGE_OUTCOMES)}) >= ${ALARM_THRESHOLDS.bankErrorMinimumCharges}, 100 * (${sumOf(BANK_ERROR_OUTCOMES)}) / (${sumOf(CHARGE_OUTCOMES)}), 0)`,
          usingMetrics: charges,
          label: 'Bank error %',
          period: Duration.minutes(5),
        }),
        threshold: ALARM_THRESHOLDS.bankErrorPercent,
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      parkedRecords: new Alarm(this, 'ParkedRecords', {
        alarmDescription: 'A worker parked a record it could not handle after its retries: npm run admin -- dead-letters list (docs/runbook.md)',
        metric: new MathExpression({ expression: sumOf(Object.keys(parked)), usingMetrics: parked, label: 'Parked records', ...minute }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    };
    const page = new SnsAction(this.topic);
    for (const alarm of [...Object.values(this.alarms), ...alarms]) {
      alarm.addAlarmAction(page);
      alarm.addOkAction(page);
    }

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `svc-payments-${config.stage}`,
      defaultInterval: Duration.hours(3),
    });
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) => new GraphWidget({ title, left, right, width: 8, height: 6 });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: `# svc-payments ${config.stage}\nAlarms and what to do: docs/runbook.md`, width: 24, height: 1 }),
    );
    this.dashboard.addWidgets(
      graph('API requests and errors', [apiStage.metricCount({ statistic: 'SampleCount' })], [apiStage.metricServerError(), apiStage.metricClientError()]),
      graph('API latency (ms)', [apiStage.metricLatency({ statistic: 'p50' }), apiStage.metricLatency({ statistic: 'p99' })]),
      graph('Charges by outcome', Object.values(charges), [this.alarms.bankErrorRate.metric]),
    );
    this.dashboard.addWidgets(
      graph('Webhook deliveries by outcome', WEBHOOK_DELIVERY_OUTCOMES.map((outcome) => business(METRIC.webhookDeliveries, { outcome }))),
      graph('Session expiries', [business(METRIC.expiries)], [business(METRIC.expiryLateness, {}, 'Maximum'), business(METRIC.expiryLateness, {}, 'p99')]),
      graph('Rate-limit rejections (429)', OPERATION_CLASSES.map((rateClass) => business(METRIC.rateLimitRejections, { rateClass }))),
    );
    this.dashboard.addWidgets(graph('Dead letters', alarms.map((alarm) => alarm.metric), [this.alarms.parkedRecords.metric]));
  }
}
