import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authenticator } from './auth/authenticator.ts';
import type { BackgroundPorts } from './background/background-ports.ts';
import { systemClock, type Clock } from './clock.ts';
import { readServiceConfig, type ServiceConfig } from './config.ts';
import { withOpenedSecretCache } from './crypto/opened-secret-cache.ts';
import type { Fingerprinter, SecretBox } from './crypto/secret-box.ts';
import type { GatewayRegistry } from './gateways/gateway-registry.ts';
import type { PartGroupsOf } from './function-needs.ts';
import { createLogger } from './observability/logger.ts';
import { metricsFromEnvironment, type ServiceMetrics } from './observability/metrics.ts';
import { createApiKeyStore, type ApiKeyStore } from './store/api-key-store.ts';
import { createCardStore, type CardStore } from './store/card-store.ts';
import { createChargeStore, type ChargeStore } from './store/charge-store.ts';
import { createDocumentClient } from './store/dynamo-client.ts';
import { createIdempotencyStore, type IdempotencyStore } from './store/idempotency-store.ts';
import { createMerchantStore, type MerchantStore } from './store/merchant-store.ts';
import { createOutboxReader, type OutboxReader } from './store/outbox.ts';
import { createPagoMovilClaimStore, type PagoMovilClaimStore } from './store/pago-movil-claims.ts';
import { createRateLimitStore, type RateLimitStore } from './store/rate-limit-store.ts';
import { createRefundStore, type RefundStore } from './store/refund-store.ts';
import { createSessionStore, type SessionStore } from './store/session-store.ts';
import { createTransactionStore, type TransactionStore } from './store/transaction-store.ts';
import { createWebhookDeliveryStore, type WebhookDeliveryStore } from './store/webhook-delivery-store.ts';
import { createWebhookEndpointStore, type WebhookEndpointStore } from './store/webhook-endpoint-store.ts';
import { createAuditStore, type AuditStore } from './store/audit-store.ts';
import { createUserStore, type UserStore } from './store/user-store.ts';
import { createDashboardSessionStore, type DashboardSessionStore } from './store/dashboard-session-store.ts';
import type { UserDirectory, UserTokenVerifier } from './dashboard/user-directory.ts';
import type { OAuthTokenSource } from './webhooks/oauth-tokens.ts';

/** What every function has, built once per process: configuration, logging, metrics, the table and its stores. */
export interface CoreDeps {
  clock: Clock;
  config: ServiceConfig;
  logger: Logger;
  /** Business metrics (EMF): charges, webhook deliveries, expiries, rate-limit rejections. */
  metrics: ServiceMetrics;
  db: DynamoDBDocumentClient;
  authenticator: Authenticator;
  merchants: MerchantStore;
  apiKeys: ApiKeyStore;
  sessions: SessionStore;
  idempotency: IdempotencyStore;
  rateLimits: RateLimitStore;
  outbox: OutboxReader;
  cards: CardStore;
  webhookEndpoints: WebhookEndpointStore;
  webhookDeliveries: WebhookDeliveryStore;
  transactions: TransactionStore;
  charges: ChargeStore;
  /** P2C references held by the attempts they pay (one bank payment pays one session). */
  pagoMovilClaims: PagoMovilClaimStore;
  /** Refunds of transactions and the running sums they keep on them. */
  refunds: RefundStore;
  /** Dashboard users (merchant and role) and the sign-in failure counts. */
  users: UserStore;
  /** Signed-in dashboard sessions: sign-out, idle timeout, whether the sign-in had MFA (shared/dashboard/dashboard-sessions.ts). */
  dashboardSessions: DashboardSessionStore;
  /** The audit log of changes made with a user token. */
  audit: AuditStore;
}

/**
 * The parts only some functions have, in groups each built by one factory. A function gets the groups its manifest
 * entry declares (shared/function-needs.ts PartGroupsOf); only type imports here, so a Lambda bundle holds a
 * group's code only if its entry module imports the factory.
 */
export interface PartGroups {
  crypto: { secretBox: SecretBox; fingerprinter: Fingerprinter };
  /** The bank adapter of each gateway. */
  gateways: { gateways: GatewayRegistry };
  /** Sign-in and logins: Cognito in AWS, the sandbox's own locally (shared/dashboard/user-directory.ts). */
  userDirectory: { userDirectory: UserDirectory };
  /** Checks user tokens (the Cognito pool's in AWS, the sandbox's own locally): the functions of dashboard routes have it. */
  userTokens: { userTokens: UserTokenVerifier };
  /** Queues, one-time schedules and outbound HTTP of the background workers (shared/workers.ts). */
  queues: Pick<BackgroundPorts, 'queues'>;
  scheduler: Pick<BackgroundPorts, 'scheduler'>;
  webhookHttp: Pick<BackgroundPorts, 'httpPost'> & { oauthTokens: OAuthTokenSource };
}
export type PartGroup = keyof PartGroups;
type Union2Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** The parts of the given groups. */
export type PartsOf<G extends PartGroup> = [G] extends [never] ? unknown : Union2Intersection<PartGroups[G]>;
/** Every part: what the sandbox has, running every route and worker in one process. */
export type Parts = PartsOf<PartGroup>;
/** Everything: the sandbox's and a test's dependencies, enough for any function. */
export type AllDeps = CoreDeps & Parts;
/** What the payment flows (shared/payments) take: the core with the crypto and gateway parts (routes that reach a bank). */
export type PaymentDeps = CoreDeps & PartsOf<'crypto' | 'gateways'>;
/** What the function of a manifest entry gets: the core and the parts its entry declares, nothing else. */
export type DepsOf<D> = CoreDeps & PartsOf<PartGroupsOf<D>>;

/** Builds one group of parts over the environment and the core: in a Lambda function (the sandbox passes stand-ins). */
export type PartsFactory<G extends PartGroup> = (env: NodeJS.ProcessEnv, core: CoreDeps) => PartGroups[G];
/** The factory of each group a manifest entry declares: exactly those, so a function builds what the stack grants it. */
export type PartFactories<D> = { [G in PartGroupsOf<D>]: PartsFactory<G> };
/** The last arguments of defineApiHandler and defineWorker: the entry's factories, when it declares any part. */
export type WiringOf<D> = [PartGroupsOf<D>] extends [never] ? [] : [factories: PartFactories<D>];

export interface DepsOptions<P> {
  config: ServiceConfig;
  db: DynamoDBDocumentClient;
  clock?: Clock;
  logger?: Logger;
  /** Default: EMF metrics when the stack set a namespace (POWERTOOLS_METRICS_NAMESPACE), none otherwise. */
  metrics?: ServiceMetrics;
  /** The optional parts this process has, built over the core. */
  parts: (core: CoreDeps) => P;
}

export function createDeps<P extends Partial<Parts>>({ config, db, clock = systemClock, logger = createLogger(), metrics = metricsFromEnvironment(), parts }: DepsOptions<P>): CoreDeps & P {
  const merchants = createMerchantStore(db, config.tableName);
  const users = createUserStore(db, config.tableName);
  const dashboardSessions = createDashboardSessionStore(db, config.tableName);
  const apiKeys = createApiKeyStore(db, config.tableName);
  const transactions = createTransactionStore(db, config.tableName);
  // User tokens are checked only where the function has a verifier: the functions of dashboard routes.
  let tokens: UserTokenVerifier | undefined;
  const core: CoreDeps = {
    clock,
    config,
    logger,
    metrics,
    db,
    merchants,
    apiKeys,
    authenticator: new Authenticator(apiKeys, merchants, clock, config.keyCacheTtlMs, { users, sessions: dashboardSessions, tokens: { verify: (token) => (tokens ? tokens.verify(token) : Promise.resolve(null)) } }),
    sessions: createSessionStore(db, config.tableName),
    idempotency: createIdempotencyStore(db, config.tableName),
    rateLimits: createRateLimitStore(db, config.tableName),
    outbox: createOutboxReader(db, config.tableName),
    cards: createCardStore(db, config.tableName),
    webhookEndpoints: createWebhookEndpointStore(db, config.tableName),
    webhookDeliveries: createWebhookDeliveryStore(db, config.tableName),
    transactions,
    charges: createChargeStore(db, config.tableName, transactions),
    pagoMovilClaims: createPagoMovilClaimStore(db, config.tableName),
    refunds: createRefundStore(db, config.tableName),
    users,
    dashboardSessions,
    audit: createAuditStore(db, config.tableName),
  };
  const built = parts(core);
  tokens = built.userTokens;
  const secretBox = built.secretBox && { secretBox: withOpenedSecretCache(built.secretBox, clock) };
  return { ...core, ...built, ...secretBox };
}

/**
 * A Lambda container's dependencies, with the parts of the factories its entry module passes (defineApiHandler and
 * defineWorker type them by the manifest entry); called once per container, on the first invocation (not at import,
 * so modules stay side-effect free).
 */
export function depsFromEnvironment(factories: { [G in PartGroup]?: PartsFactory<G> }): CoreDeps & Partial<Parts> {
  const config = readServiceConfig();
  const db = createDocumentClient({ tableName: config.tableName, endpoint: process.env.DYNAMODB_ENDPOINT });
  const builders = Object.values(factories) as ((env: NodeJS.ProcessEnv, core: CoreDeps) => Partial<Parts>)[];
  return createDeps({ config, db, parts: (core) => Object.assign({}, ...builders.map((build) => build(process.env, core))) as Partial<Parts> });
}
