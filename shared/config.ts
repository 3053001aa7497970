/**
 * Configuration read once at start-up. A missing variable fails the cold start loudly instead of
 * failing requests later.
 */
export interface ServiceConfig {
  tableName: string;
  /** Base of checkoutUrl: {checkoutBaseUrl}/checkout?session=cs_... */
  checkoutBaseUrl: string;
  /** How long a resolved API key and its merchant are cached in memory. */
  keyCacheTtlMs: number;
  /** Largest JSON body accepted, in bytes. */
  maxBodyBytes: number;
  /**
   * Sandbox only: webhook endpoints may be plain http on the loopback interface, and the sender may connect there.
   * Never set in AWS, where the sender refuses loopback, private, link-local and metadata addresses.
   */
  allowLoopbackWebhooks?: boolean;
  /**
   * Sandbox only: the gateways whose traffic, live and test, goes to the sandbox's built-in simulators. Their
   * checkout sessions answer `simulated: true`, and the page says no real money moves. Never set in AWS.
   */
  simulatedGateways?: readonly string[];
  /** Base of each error's docUrl (`<base>#error-<code>`): the errors page of the docs (docs/errors.md). Default: shared/http/request-id.ts. */
  docsBaseUrl?: string;
}

export const DEFAULT_KEY_CACHE_TTL_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export function requireEnv(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export function readServiceConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return {
    tableName: requireEnv('TABLE_NAME', env),
    checkoutBaseUrl: requireEnv('CHECKOUT_BASE_URL', env),
    keyCacheTtlMs: env.KEY_CACHE_SECONDS ? Number(env.KEY_CACHE_SECONDS) * 1000 : DEFAULT_KEY_CACHE_TTL_MS,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    docsBaseUrl: env.DOCS_BASE_URL || undefined,
  };
}
