import { randomUUID } from 'node:crypto';
import { OffsetClock, type Clock } from '../../shared/clock.ts';
import { DEFAULT_KEY_CACHE_TTL_MS, DEFAULT_MAX_BODY_BYTES } from '../../shared/config.ts';
import { createFingerprinter, createSecretBox } from '../../shared/crypto/create-crypto.ts';
import { sandboxUserDirectory, type LocalUserDirectory } from '../../shared/dashboard/local-user-directory.ts';
import type { PasswordCost } from '../../shared/dashboard/password-hash.ts';
import { createDeps, type AllDeps, type Parts } from '../../shared/deps.ts';
import { createGatewayRegistry, DEFAULT_GATEWAY_TIMEOUT_MS } from '../../shared/gateways/gateway-registry.ts';
import { docsBaseUrlAt } from '../../shared/http/request-id.ts';
import { createDocumentClient } from '../../shared/store/dynamo-client.ts';
import type { InstrumentableClient } from '../../shared/observability/call-counter.ts';
import { startSandboxBank, type SandboxBank } from './bank/sandbox-bank.ts';
import { sandboxGatewayUrls, simulatedGateways } from './gateway-urls.ts';
import { startMercantilSimulator, type MercantilSimulator } from './mercantil/mercantil-simulator.ts';
import { startStripeSimulator, type StripeSimulator } from './stripe/stripe-simulator.ts';
import { startBackgroundRunner, type BackgroundRunner, type LocalBackground } from './background-runner.ts';
import { ensureTable } from './dynamodb-local.ts';
import { createLocalBackground } from './local-background.ts';
import { sandboxEnvironment } from './environment.ts';
import { publicOrigin, startSandboxServer, type SandboxServer } from './server.ts';
import type { RequestLogEntry } from './request-log.ts';
import { createLogger } from '../../shared/observability/logger.ts';
import { createOAuthTokenSource } from '../../shared/webhooks/oauth-tokens.ts';

export interface SandboxOptions {
  /** DynamoDB Local endpoint, already running. */
  dynamoEndpoint: string;
  tableName: string;
  port?: number;
  host?: string;
  /** Defaults to the sandbox's own URL: the checkout is served there too. */
  checkoutBaseUrl?: string;
  clock?: OffsetClock;
  /** The time of the users' authenticator apps, which MFA codes are checked against; default real time. */
  authenticatorClock?: Clock;
  /** scrypt's work factors for dashboard passwords (shared/dashboard/password-hash.ts PASSWORD_COST by default). */
  passwordCost?: PasswordCost;
  keyCacheTtlMs?: number;
  /** Local key files; defaults to the sandbox environment's, which the admin CLI uses too. */
  keyDir?: string;
  logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
  /** Called with every API request once answered (npm start prints one line each). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Base of each error's docUrl (DOCS_BASE_URL); default this sandbox's own errors page, <url>/docs/errors. */
  docsBaseUrl?: string;
  /** Deadline of one call to the sandbox bank; tests shorten it to cross the timeout card quickly. */
  gatewayTimeoutMs?: number;
  /** Where GATEWAY_*_URL overrides of the built-in simulators are read (gateway-urls.ts); default process.env. */
  gatewayEnv?: NodeJS.ProcessEnv;
  /** Called with every AWS SDK client the sandbox creates, e.g. to count round trips (bench/). */
  instrumentClient?: (client: InstrumentableClient) => void;
  /**
   * Which merchants' stream records, queue messages and timers this sandbox handles; default all. Several sandboxes
   * on one table (the test run) each handle only the merchants they created, on their own clock.
   */
  ownsMerchant?: (merchantId: string) => boolean;
  /**
   * Names where this sandbox's stream reader saves its position, so a restart under the same name resumes there.
   * Default: one shared name when the sandbox owns every merchant (`npm start`); otherwise a new one per instance,
   * since a sandbox that skips other merchants' records must never move their owner's position.
   */
  streamReaderId?: string;
}

export interface Sandbox {
  url: string;
  deps: AllDeps;
  /** The sandbox's own dashboard sign-in (Cognito's stand-in), which can set a user's password outright. */
  userDirectory: LocalUserDirectory;
  clock: OffsetClock;
  server: SandboxServer;
  /** The simulated banks the gateways talk to (test cards, recorded calls, faults). */
  bank: SandboxBank;
  /** Banco Mercantil's simulator (connector mercantil), unless GATEWAY_MERCANTIL_URL sends its traffic elsewhere. */
  mercantil: MercantilSimulator;
  /** Stripe's simulator (connector stripe), unless GATEWAY_STRIPE_URL sends its traffic elsewhere. */
  stripe: StripeSimulator;
  /** Pass it to a restart of this sandbox to resume its stream where it stopped. */
  streamReaderId: string;
  /** The in-process workers (stream reader, queues, scheduler stand-in); drain() runs them until idle. */
  background: BackgroundRunner & Pick<LocalBackground, 'queues' | 'scheduler'>;
  stop(): Promise<void>;
}

/** The API over DynamoDB Local with the sandbox clock; what `npm start` runs and what HTTP tests start. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  await ensureTable(options.dynamoEndpoint, options.tableName);
  const clock = options.clock ?? new OffsetClock();
  const db = createDocumentClient({ tableName: options.tableName, endpoint: options.dynamoEndpoint });
  options.instrumentClient?.(db);
  const config = {
    tableName: options.tableName,
    checkoutBaseUrl: options.checkoutBaseUrl ?? 'pending',
    keyCacheTtlMs: options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    allowLoopbackWebhooks: true,
    simulatedGateways: simulatedGateways(options.gatewayEnv ?? process.env),
    docsBaseUrl: options.docsBaseUrl,
  };
  const logger = createLogger({ logLevel: options.logLevel ?? 'WARN' });
  const keys = { localKeyDir: options.keyDir ?? sandboxEnvironment().keyDir };
  const bank = await startSandboxBank({ clock });
  const mercantil = await startMercantilSimulator({ clock });
  const stripe = await startStripeSimulator({ clock });
  const simulators = { ...bank.baseUrls, mercantil: mercantil.baseUrl, stripe: stripe.url };
  const gatewayConfig = { urls: sandboxGatewayUrls(simulators, options.gatewayEnv ?? process.env), timeoutMs: options.gatewayTimeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS };
  const streamReaderId = options.streamReaderId ?? (options.ownsMerchant ? randomUUID() : 'sandbox');
  const localBackground = createLocalBackground({
    db,
    dynamoEndpoint: options.dynamoEndpoint,
    tableName: options.tableName,
    clock,
    owns: options.ownsMerchant ?? (() => true),
    streamReaderId,
  });
  // Every optional part, as local stand-ins: the sandbox runs every route and worker in one process.
  const { ports } = localBackground;
  // Dashboard users sign in against the table (scrypt hashes, locally signed tokens) instead of Cognito.
  const userDirectory = sandboxUserDirectory({ db, tableName: options.tableName, keyDir: keys.localKeyDir, clock, authenticatorClock: options.authenticatorClock, passwordCost: options.passwordCost });
  const deps = createDeps({
    config,
    db,
    clock,
    logger,
    parts: (core): Parts => ({
      secretBox: createSecretBox(keys),
      fingerprinter: createFingerprinter(keys),
      gateways: createGatewayRegistry(() => gatewayConfig, core.metrics),
      ...ports,
      oauthTokens: createOAuthTokenSource(ports.httpPost, core.clock),
      userDirectory,
      userTokens: userDirectory,
    }),
  });
  const runner = await startBackgroundRunner(deps, localBackground.local);
  const server = await startSandboxServer({ deps, clock, port: options.port, host: options.host, onRequest: options.onRequest, bank, stripe, mercantil });
  // The port is known only once listening; the checkout lives on the same origin.
  config.checkoutBaseUrl = options.checkoutBaseUrl ?? publicOrigin(server.url);
  // Its own docs, served at /docs: each error's docUrl opens its entry in this sandbox (docs/errors.md).
  config.docsBaseUrl = options.docsBaseUrl ?? docsBaseUrlAt(publicOrigin(server.url));
  return {
    url: server.url,
    deps,
    userDirectory,
    clock,
    server,
    bank,
    mercantil,
    stripe,
    streamReaderId,
    background: { ...runner, queues: localBackground.local.queues, scheduler: localBackground.local.scheduler },
    stop: async () => {
      await runner.stop();
      localBackground.close();
      await server.close();
      await bank.close();
      await mercantil.close();
      await stripe.close();
      db.destroy();
    },
  };
}
