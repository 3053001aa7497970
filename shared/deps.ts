import { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authenticator } from './auth/authenticator.ts';
import { systemClock, type Clock } from './clock.ts';
import { readServiceConfig, type ServiceConfig } from './config.ts';
import { createApiKeyStore, type ApiKeyStore } from './store/api-key-store.ts';
import { createCardReader, type CardReader } from './store/card-store.ts';
import { createDocumentClient } from './store/dynamo-client.ts';
import { createIdempotencyStore, type IdempotencyStore } from './store/idempotency-store.ts';
import { createMerchantStore, type MerchantStore } from './store/merchant-store.ts';
import { createOutboxReader, type OutboxReader } from './store/outbox.ts';
import { createRateLimitStore, type RateLimitStore } from './store/rate-limit-store.ts';
import { createSessionStore, type SessionStore } from './store/session-store.ts';

/** Everything a handler needs, built once per process: in a Lambda container from its environment, in the sandbox by the sandbox. */
export interface Deps {
  clock: Clock;
  config: ServiceConfig;
  logger: Logger;
  db: DynamoDBDocumentClient;
  authenticator: Authenticator;
  merchants: MerchantStore;
  apiKeys: ApiKeyStore;
  sessions: SessionStore;
  idempotency: IdempotencyStore;
  rateLimits: RateLimitStore;
  outbox: OutboxReader;
  cards: CardReader;
}

export interface DepsOptions {
  config: ServiceConfig;
  db: DynamoDBDocumentClient;
  clock?: Clock;
  logger?: Logger;
}

export function createDeps({ config, db, clock = systemClock, logger = new Logger({ serviceName: 'svc-payments' }) }: DepsOptions): Deps {
  const merchants = createMerchantStore(db, config.tableName);
  const apiKeys = createApiKeyStore(db, config.tableName);
  return {
    clock,
    config,
    logger,
    db,
    merchants,
    apiKeys,
    authenticator: new Authenticator(apiKeys, merchants, clock, config.keyCacheTtlMs),
    sessions: createSessionStore(db, config.tableName),
    idempotency: createIdempotencyStore(db, config.tableName),
    rateLimits: createRateLimitStore(db, config.tableName),
    outbox: createOutboxReader(db, config.tableName),
    cards: createCardReader(db, config.tableName),
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
