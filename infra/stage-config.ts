import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

/** Stages whose data must survive a mistaken `cdk destroy` or a resource replacement. */
const PRODUCTION_STAGES = new Set(['prod']);

/** Checkout links in non-production stages until the checkout construct gives them a real origin (RFC 2606 name). */
export const DEFAULT_CHECKOUT_BASE_URL = 'https://checkout.example.com';
/** Requests per second across all merchants, per method; per-merchant limits are the rate-limit middleware's job. */
export const DEFAULT_API_THROTTLE_RATE_LIMIT = 200;
export const DEFAULT_API_THROTTLE_BURST_LIMIT = 400;

/** Everything that differs between deployments. Nothing secret: it all ends up in the template. */
export interface StageConfig {
  stage: string;
  production: boolean;
  /** Base of every session's checkoutUrl. */
  checkoutBaseUrl: string;
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** For stateful resources: the table, its key, log groups. */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
}

/**
 * Reads the stage's configuration from CDK context (`-c key=value` or cdk.json):
 * - `stage` (default `dev`): names the stack `svc-payments-<stage>`; `prod` is a production stage.
 * - `checkoutBaseUrl` (default {@link DEFAULT_CHECKOUT_BASE_URL}; required for production stages).
 * - `apiThrottleRateLimit`, `apiThrottleBurstLimit` (defaults 200 and 400): API Gateway stage throttling.
 *
 * @example
 * const config = readStageConfig(app.node); // npx cdk synth -c stage=prod -c checkoutBaseUrl=https://pay.example.com
 */
export function readStageConfig(node: Node): StageConfig {
  const stage = contextString(node, 'stage') ?? 'dev';
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    throw new Error(`Context stage must be lowercase letters, digits and dashes (at most 20), starting with a letter; got "${stage}".`);
  }
  const production = PRODUCTION_STAGES.has(stage);
  const checkoutBaseUrl = contextString(node, 'checkoutBaseUrl');
  // A placeholder checkout link in production would send real buyers nowhere.
  if (production && !checkoutBaseUrl) throw new Error(`Stage ${stage} needs -c checkoutBaseUrl=https://...`);
  return {
    stage,
    production,
    checkoutBaseUrl: httpsUrl(checkoutBaseUrl ?? DEFAULT_CHECKOUT_BASE_URL),
    apiThrottle: {
      rateLimit: contextNumber(node, 'apiThrottleRateLimit') ?? DEFAULT_API_THROTTLE_RATE_LIMIT,
      burstLimit: contextNumber(node, 'apiThrottleBurstLimit') ?? DEFAULT_API_THROTTLE_BURST_LIMIT,
    },
    removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    logRetention: production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
  };
}

export const stackNameFor = (stage: string) => `svc-payments-${stage}`;

function contextString(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

/** `-c` values arrive as strings, cdk.json values as numbers: accept both. */
function contextNumber(node: Node, key: string): number | undefined {
  const raw = contextString(node, key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`Context ${key} must be a positive whole number; got "${raw}".`);
  return value;
}

function httpsUrl(value: string): string {
  const url = URL.parse(value);
  if (!url || url.protocol !== 'https:') throw new Error(`Context checkoutBaseUrl must be an https:// URL; got "${value}".`);
  // checkoutUrl is built as {checkoutBaseUrl}/checkout?session=...
  return value.replace(/\/+$/, '');
}
