import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authenticator } from './auth/authenticator.ts';
import { systemClock, type Clock } from './clock.ts';
import { readServiceConfig, type ServiceConfig } from './config.ts';
import { cryptoFromEnvironment } from './crypto/create-crypto.ts';
import type { Fingerprinter, SecretBox } from './crypto/secret-box.ts';
import { createGatewayRegistry, readGatewayConfig, type GatewayConfig, type GatewayRegistry } from './gateways/gateway-registry.ts';
import { createApiKeyStore, type ApiKeyStore } from './store/api-key-store.ts';
import { createCardStore, type CardStore } from './store/card-store.ts';
import { createChargeStore, type ChargeStore } from './store/charge-store.ts';
import { createDocumentClient } from './store/dynamo-client.ts';
import { createIdempotencyStore, type IdempotencyStore } from './store/idempotency-store.ts';
import { createMerchantStore, type MerchantStore } from './store/merchant-store.ts';
import { createOutboxReader, type OutboxReader } from './store/outbox.ts';
import { createRateLimitStore, type RateLimitStore } from './store/rate-limit-store.ts';
import { createSessionStore, type SessionStore } from './store/session-store.ts';
import { createWebhookDeliveryStore, type WebhookDeliveryStore } from './store/webhook-delivery-store.ts';
import { createWebhookEndpointStore, type WebhookEndpointStore } from './store/webhook-endpoint-store.ts';
import { backgroundFromEnvironment, type BackgroundPorts } from './background/background-ports.ts';
import { createOAuthTokenSource, type OAuthTokenSource } from './webhooks/oauth-tokens.ts';
import { createTransactionStore, type TransactionStore } from './store/transaction-store.ts';
import { createLogger } from './observability/logger.ts';
import { metricsFromEnvironment, type ServiceMetrics } from './observability/metrics.ts';

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
  /** The bank adapter of each gateway. */
  gateways: GatewayRegistry;
}

export interface DepsOptions {
  config: ServiceConfig;
  db: DynamoDBDocumentClient;
  clock?: Clock;
  logger?: Logger;
  /** Default: EMF metrics when the stack set a namespace (POWERTOOLS_METRICS_NAMESPACE), none otherwise. */
  metrics?: ServiceMetrics;
  /** Default: from the environment (KMS or LOCAL_KEY_DIR), built on first use. The sandbox passes its local keys. */
  secretBox?: SecretBox;
  fingerprinter?: Fingerprinter;
  /** Default: SQS, EventBridge Scheduler and guarded outbound HTTP from the environment, each built on first use. The sandbox passes its stand-ins. */
  background?: BackgroundPorts;
  /** Default: from the environment (GATEWAY_*_URL), read on first use, so functions that never call a bank need none. */
  gatewayConfig?: GatewayConfig;
}

export function createDeps({ config, db, clock = systemClock, logger = createLogger(), metrics = metricsFromEnvironment(), secretBox, fingerprinter, gatewayConfig, background }: DepsOptions): Deps {
  const ports = background ?? backgroundFromEnvironment();
  // Lazy: a Lambda function that never encrypts needs neither the key variables nor a KMS grant.
  const fromEnvironment = cryptoFromEnvironment();
  const merchants = createMerchantStore(db, config.tableName);
  const apiKeys = createApiKeyStore(db, config.tableName);
  const transactions = createTransactionStore(db, config.tableName);
  return {
    clock,
    config,
    logger,
    metrics,
    db,
    merchants,
    apiKeys,
    authenticator: new Authenticator(apiKeys, merchants, clock, config.keyCacheTtlMs),
    sessions: createSessionStore(db, config.tableName),
    idempotency: createIdempotencyStore(db, config.tableName),
    rateLimits: createRateLimitStore(db, config.tableName),
    outbox: createOutboxReader(db, config.tableName),
    cards: createCardStore(db, config.tableName),
    secretBox: secretBox ?? fromEnvironment.secretBox,
    fingerprinter: fingerprinter ?? fromEnvironment.fingerprinter,
    webhookEndpoints: createWebhookEndpointStore(db, config.tableName),
    webhookDeliveries: createWebhookDeliveryStore(db, config.tableName),
    queues: ports.queues,
    scheduler: ports.scheduler,
    httpPost: ports.httpPost,
    oauthTokens: createOAuthTokenSource(ports.httpPost, clock),
    transactions,
    charges: createChargeStore(db, config.tableName, transactions),
    gateways: createGatewayRegistry(() => gatewayConfig ?? readGatewayConfig(), metrics),
  };
}

let lambdaDeps: Deps | undefined;

/** The Lambda container's dependencies, created on first use (not at import, so modules stay side-effect free). */
export function depsFromEnvironment(): Deps {
  if (!lambdaDeps) {
    const config = readServiceConfig();
    lambdaDeps = createDeps({ config, db: createDocumentClient({ tableName: config.tableName, endpoint: process.env.DYNAMODB_ENDPOINT }) });
  }
  return lambdaDeps;
}
