import { App, CfnOutput, Duration, Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { docsBaseUrlAt } from '../shared/http/request-id.ts';
import { routes, type RouteDefinition, type RouteId } from '../shared/routes.ts';
import { workerIds, workers, type WorkerId } from '../shared/workers.ts';
import { Api } from './constructs/api.ts';
import { ApiFirewall } from './constructs/api-firewall.ts';
import { CheckoutSite } from './constructs/checkout-site.ts';
import { DashboardSite } from './constructs/dashboard-site.ts';
import { EdgeMarker } from './constructs/edge-marker.ts';
import { DataStore } from './constructs/data-store.ts';
import { provideNeeds } from './constructs/provide-needs.ts';
import { Monitoring } from './constructs/monitoring.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { ServiceKeys } from './constructs/service-keys.ts';
import { SessionExpiry } from './constructs/session-expiry.ts';
import { DashboardUserPool } from './constructs/user-pool.ts';
import { Webhooks } from './constructs/webhooks.ts';
import { WorkerFunction } from './constructs/worker-function.ts';
import { isDeadLetterAlarm } from './constructs/work-queue.ts';
import { readStageConfig, readStageEnvironment, stackNameFor, type StageConfig } from './stage-config.ts';

export interface PaymentsStackProps extends StackProps {
  config: StageConfig;
}

/**
 * The service in AWS: the table and the /v1 API over it, its background work, the checkout page, the keys, the
 * firewall and the on-call monitoring of one stage.
 */
export class PaymentsStack extends Stack {
  readonly dataStore: DataStore;
  readonly keys: ServiceKeys;
  readonly api: Api;
  readonly firewall: ApiFirewall;
  /** The secret our CloudFront sites send the API, rotated on both ends (docs/runbook.md, "The edge marker"). */
  readonly edgeMarker: EdgeMarker;
  readonly monitoring: Monitoring;
  readonly webhooks: Webhooks;
  readonly sessionExpiry: SessionExpiry;
  readonly checkoutSite: CheckoutSite;
  /** The dashboard's users: Cognito, behind the API's sign-in routes (docs/dashboard.md). */
  readonly userPool: DashboardUserPool;
  readonly dashboardSite: DashboardSite;
  /** The manifest's daily workers by id, each with its schedule (WorkerFunction wires the daily trigger). */
  readonly dailyWorkers: Partial<Record<WorkerId, WorkerFunction>> = {};

  constructor(scope: Construct, id: string, { config, ...props }: PaymentsStackProps) {
    super(scope, id, {
      description: `svc-payments ${config.stage}: payment sessions and stored cards`,
      terminationProtection: config.production,
      ...props,
    });
    // Each error's docUrl opens its entry in the docs deployed with the dashboard's site, unless -c docsBaseUrl
    // names others: every function and API Gateway's own answers get the site's address once it exists.
    config = { ...config, docsBaseUrl: config.docsBaseUrl ?? Lazy.string({ produce: () => docsBaseUrlAt(this.dashboardSite.url) }) };
    this.dataStore = new DataStore(this, 'DataStore', { config });
    this.keys = new ServiceKeys(this, 'Keys', { config });
    this.api = new Api(this, 'Api', { config, dataStore: this.dataStore, routes });
    this.webhooks = new Webhooks(this, 'Webhooks', { config, dataStore: this.dataStore, routeFunctions: this.api.routeFunctions });
    this.sessionExpiry = new SessionExpiry(this, 'SessionExpiry', { config, dataStore: this.dataStore });
    for (const workerId of workerIds) {
      const worker = workers[workerId];
      if (worker.trigger.kind !== 'daily') continue;
      // A daily run works through everything due that day, one item at a time: far more than a request's 10 s.
      this.dailyWorkers[workerId] = new WorkerFunction(this, workerId, { config, dataStore: this.dataStore, queues: {}, timeout: Duration.minutes(5) });
    }
    this.edgeMarker = new EdgeMarker(this, 'EdgeMarker', { config });
    this.checkoutSite = new CheckoutSite(this, 'CheckoutSite', { config, restApi: this.api.restApi, edgeMarker: this.edgeMarker });
    this.checkoutSite.useAsCheckoutBaseUrl(Object.values(this.api.routeFunctions).map((f) => f.function));
    this.dashboardSite = new DashboardSite(this, 'DashboardSite', { config, restApi: this.api.restApi, edgeMarker: this.edgeMarker });
    this.edgeMarker.rotateOn([this.checkoutSite.distribution, this.dashboardSite.distribution]);
    this.firewall = new ApiFirewall(this, 'Firewall', { config, stage: this.api.restApi.deploymentStage, edgeMarker: this.edgeMarker });

    this.userPool = new DashboardUserPool(this, 'DashboardUsers', { config });
    // Routes that take a user token verify it against the pool; those that sign in or manage logins get their actions (provideNeeds).
    for (const [routeId, route] of Object.entries(routes) as [RouteId, RouteDefinition][]) {
      if (route.dashboard && !route.needs?.includes('userPool')) this.userPool.verifiesTokens(this.api.routeFunctions[routeId]!);
    }

    // Once every function exists, whichever construct made it: each gets the keys and banks its manifest entry names.
    const constructs = this.node.findAll();
    for (const fn of constructs) if (fn instanceof ServiceFunction) provideNeeds(fn, { config, keys: this.keys, userPool: this.userPool });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      apiStage: this.api.restApi.deploymentStage,
      // Every dead letter pages: the work queues', the daily workers' failed runs, the schedules' undelivered hand-overs.
      alarms: constructs.filter(isDeadLetterAlarm),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the API; requests go to {ApiUrl}v1/...' });
    new CfnOutput(this, 'TableName', { value: this.dataStore.table.tableName });
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.pool.userPoolId, description: 'USER_POOL_ID for the admin CLI (users create --aws)' });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPool.client.userPoolClientId, description: 'USER_POOL_CLIENT_ID for the admin CLI (users create --aws)' });
    new CfnOutput(this, 'CheckoutUrl', { value: this.checkoutSite.url, description: 'Base of every checkoutUrl: {CheckoutUrl}/checkout?session=cs_...' });
    new CfnOutput(this, 'DocsUrl', { value: `${this.dashboardSite.url}/docs/`, description: "The docs: every error body's docUrl opens its entry in {DocsUrl}errors" });
    new CfnOutput(this, 'DashboardUrl', { value: `${this.dashboardSite.url}/dashboard/`, description: 'The merchant dashboard (sign in with a user of the user pool)' });
    new CfnOutput(this, 'SecretsKeyArn', { value: this.keys.secrets.keyArn, description: 'SECRETS_KMS_KEY_ARN for the admin CLI (credentials load --aws)' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn, description: 'On-call alarms: subscribe pagers here' });
  }
}

/**
 * Adds the stage's stack (configured from the app's context) to the app: what `cdk synth` runs and the tests
 * synthesize.
 *
 * @example
 * const stack = addPaymentsStack(new App({ context: { stage: 'dev', account: '123456789012', region: 'eu-west-1' } }));
 */
export function addPaymentsStack(app: App): PaymentsStack {
  const config = readStageConfig(app.node);
  // Always a named account and region (readStageEnvironment throws otherwise): never one the CLI picked by default.
  return new PaymentsStack(app, stackNameFor(config.stage), { config, env: readStageEnvironment(app.node) });
}
