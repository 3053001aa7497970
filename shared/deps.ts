import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authenticator } from './auth/authenticator.ts';
import type { BackgroundPorts } from './background/background-ports.ts';
import { systemClock, type Clock } from './clock.ts';
import { readServiceConfig, type ServiceConfig } from './config.ts';
import { withOpenedSecretCache } from './crypto/opened-secret-cache.ts';
import type { Fingerprinter, SecretBox } from './crypto/secret-box.ts';
import type { GatewayRegistry } from './gateways/gateway-registry.ts';
import { createLogger } from './observability/logger.ts';
import { processTracer } from './observability/tracer.ts';
import { metricsFromEnvironment, type ServiceMetrics } from './observability/metrics.ts';
import { createApiKeyStore, type ApiKeyStore } from './store/api-key-store.ts';
import { createCardStore, type CardStore } from './store/card-store.ts';
import { createChargeStore, type ChargeStore } from './store/charge-store.ts';
import { createDocumentClient } from './store/dynamo-client.ts';
import { createIdempotencyStore, type IdempotencyStore } from './store/idempotency-store.ts';
import { createMerchantStore, type MerchantStore } from './store/merchant-store.ts';
import { createOutboxReader, type OutboxReader } from './store/outbox.ts';
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

/** Everything a handler needs, built once per process: in a Lambda container from its environment, in the sandbox by the sandbox. */
export interface Deps {
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
  secretBox: SecretBox;
  fingerprinter: Fingerprinter;
  webhookEndpoints: WebhookEndpointStore;
  webhookDeliveries: WebhookDeliveryStore;
  /** Queues, one-time schedules and outbound HTTP of the background workers (shared/workers.ts). */
  queues: BackgroundPorts['queues'];
  scheduler: BackgroundPorts['scheduler'];
  httpPost: BackgroundPorts['httpPost'];
  oauthTokens: OAuthTokenSource;
  transactions: TransactionStore;
  charges: ChargeStore;
  /** Refunds of transactions and the running sums they keep on them. */
  refunds: RefundStore;
  /** The bank adapter of each gateway. */
  gateways: GatewayRegistry;
  /** Dashboard users (merchant and role) and the sign-in failure counts. */
  users: UserStore;
  /** Signed-in dashboard sessions: sign-out, idle timeout, whether the sign-in had MFA (shared/dashboard/dashboard-sessions.ts). */
  dashboardSessions: DashboardSessionStore;
  /** The audit log of changes made with a user token. */
  audit: AuditStore;
  /** Checks user tokens (the Cognito pool's in AWS, the sandbox's own locally): the functions of dashboard routes wire it. */
  userTokens: UserTokenVerifier;
  /** Sign-in and logins: Cognito in AWS, the sandbox's own locally (shared/dashboard/user-directory.ts). */
  userDirectory: UserDirectory;
}

/** The parts only some functions use. Only type imports here: a Lambda bundle holds a part's code only if its module wires it. */
const OPTIONAL_PARTS = ['secretBox', 'fingerprinter', 'gateways', 'queues', 'scheduler', 'httpPost', 'oauthTokens', 'userDirectory', 'userTokens'] as const satisfies readonly (keyof Deps)[];
export type OptionalParts = Pick<Deps, (typeof OPTIONAL_PARTS)[number]>;
/** What every function has: configuration, logging, metrics, the table and its stores. */
export type CoreDeps = Omit<Deps, keyof OptionalParts>;

/**
 * Builds some of the optional parts. A Lambda function gets those its handler or worker module wires, from its
 * environment: cryptoFromEnvironment (secretBox, fingerprinter), gatewaysFromEnvironment, queuesFromEnvironment,
 * schedulerFromEnvironment, webhookHttpFromEnvironment (httpPost, oauthTokens). The sandbox passes its stand-ins.
 */
export type PartsFactory = (env: NodeJS.ProcessEnv, core: CoreDeps) => Partial<OptionalParts>;

export interface DepsOptions {
  config: ServiceConfig;
  db: DynamoDBDocumentClient;
  clock?: Clock;
  logger?: Logger;
  /** Default: EMF metrics when the stack set a namespace (POWERTOOLS_METRICS_NAMESPACE), none otherwise. */
  metrics?: ServiceMetrics;
  /** The optional parts this process has, built over process.env and the core; a part none builds throws on use. */
  parts?: readonly PartsFactory[];
}

export function createDeps({ config, db, clock = systemClock, logger = createLogger(), metrics = metricsFromEnvironment(), parts = [] }: DepsOptions): Deps {
  const merchants = createMerchantStore(db, config.tableName);
  const users = createUserStore(db, config.tableName);
  const dashboardSessions = createDashboardSessionStore(db, config.tableName);
  const apiKeys = createApiKeyStore(db, config.tableName);
  const transactions = createTransactionStore(db, config.tableName);
  const core: CoreDeps = {
    clock,
    config,
    logger,
    metrics,
    db,
    merchants,
    apiKeys,
    // Tokens are checked by the part the function wires (userTokens), looked up at use: only dashboard routes call it.
    authenticator: new Authenticator(apiKeys, merchants, clock, config.keyCacheTtlMs, { users, sessions: dashboardSessions, tokens: { verify: (token) => deps.userTokens.verify(token) } }),
    sessions: createSessionStore(db, config.tableName),
    idempotency: createIdempotencyStore(db, config.tableName),
    rateLimits: createRateLimitStore(db, config.tableName),
    outbox: createOutboxReader(db, config.tableName),
    cards: createCardStore(db, config.tableName),
    webhookEndpoints: createWebhookEndpointStore(db, config.tableName),
    webhookDeliveries: createWebhookDeliveryStore(db, config.tableName),
    transactions,
    charges: createChargeStore(db, config.tableName, transactions),
    refunds: createRefundStore(db, config.tableName),
    users,
    dashboardSessions,
    audit: createAuditStore(db, config.tableName),
  };
  const unwired = Object.fromEntries(OPTIONAL_PARTS.map((part) => [part, notWired(part)])) as OptionalParts;
  const wired: Partial<OptionalParts> = Object.assign({}, ...parts.map((build) => build(process.env, core)));
  if (wired.secretBox) wired.secretBox = withOpenedSecretCache(wired.secretBox, clock);
  const deps: Deps = { ...core, ...unwired, ...wired };
  return deps;
}

/** A part the function did not wire: any use throws, naming it, instead of failing somewhere deeper. */
function notWired(part: keyof OptionalParts): unknown {
  const fail = (): never => {
    throw new Error(`${part} is not wired in this function: add its factory to the parts of the handler or worker module (shared/deps.ts PartsFactory), and its need to the manifest entry`);
  };
  // A function target, so calling it (gateways, httpPost) fails as well as reading a method (secretBox.encrypt).
  return new Proxy(fail, { apply: fail, get: (_target, key) => (typeof key === 'string' && key !== 'then' ? fail() : undefined) });
}

/**
 * A Lambda container's dependencies, with the optional parts its module wires; called once per container, on the
 * first invocation (not at import, so modules stay side-effect free).
 */
export function depsFromEnvironment(parts: readonly PartsFactory[]): Deps {
  const config = readServiceConfig();
  const db = createDocumentClient({ tableName: config.tableName, endpoint: process.env.DYNAMODB_ENDPOINT });
  // Each DynamoDB call becomes an X-Ray subsegment under the handler's, where the time of a slow request goes.
  const tracer = processTracer();
  if (tracer.isTracingEnabled()) tracer.captureAWSv3Client(db);
  return createDeps({ config, db, parts });
}
