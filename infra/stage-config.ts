import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { GATEWAY_IDS, type GatewayId } from '../shared/domain/merchant.ts';
import { gatewayProfile } from '../shared/gateways/gateway-registry.ts';

/** Stages whose data must survive a mistaken `cdk destroy` or a resource replacement. */
const PRODUCTION_STAGES = new Set(['prod']);

/** Checkout links in non-production stages until the checkout construct gives them a real origin (RFC 2606 name). */
export const DEFAULT_CHECKOUT_BASE_URL = 'https://checkout.example.com';
/** Requests per second across all merchants, per method; per-merchant limits are the rate-limit middleware's job. */
export const DEFAULT_API_THROTTLE_RATE_LIMIT = 200;
export const DEFAULT_API_THROTTLE_BURST_LIMIT = 400;
/**
 * Requests per source IP per 5 minutes before AWS WAF blocks it: a flood guard above the per-merchant limits (a
 * merchant's server at every class's per-minute limit sends 960 a minute, 4,800 per 5 minutes).
 */
export const DEFAULT_WAF_RATE_LIMIT_PER_IP = 6_000;
/** Context key of each gateway's base URL; without it the URL is read from SSM (see gatewayUrlParameterName). */
export const GATEWAY_URL_CONTEXT_KEYS = Object.fromEntries(GATEWAY_IDS.map((id) => [id, gatewayProfile(id).endpoint.contextKey])) as Record<GatewayId, string>;

/** A custom domain name and where its certificate comes from: an ACM certificate ARN, else one created in the hosted zone. */
export interface CustomDomain {
  name: string;
  certificateArn?: string;
}

/** A Route 53 public hosted zone the stack may write to: DNS validation of the certificates it creates, alias records. */
export interface HostedZoneRef {
  id: string;
  name: string;
}

/** Everything that differs between deployments. Nothing secret: it all ends up in the template. */
export interface StageConfig {
  stage: string;
  production: boolean;
  /** Base of every session's checkoutUrl: https://{checkoutDomain}, else the distribution's own address. */
  checkoutBaseUrl: string;
  /** The checkout page's domain (CloudFront alias); its certificate must be in us-east-1. */
  checkoutDomain?: CustomDomain;
  /** The API's domain (API Gateway regional custom domain); its certificate is in the stack's region. */
  apiDomain?: CustomDomain;
  hostedZone?: HostedZoneRef;
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** AWS WAF's per-IP rate-based rule: requests per 5 minutes. */
  wafRateLimitPerIp: number;
  /** Base URL of each gateway's API from context; a gateway not given here is read from its SSM parameter at deploy. */
  gatewayUrls: Partial<Record<GatewayId, string>>;
  /** Base URL of the test environment of each gateway whose network keeps it elsewhere: context, else the published one. */
  gatewayTestUrls: Partial<Record<GatewayId, string>>;
  /** On-call address subscribed to the alarm topic, if given. */
  alarmEmail?: string;
  /**
   * The errors page of docs published elsewhere (-c docsBaseUrl=https://.../errors): the base of every error's docUrl.
   * Default: the docs deployed with the dashboard's site, <DashboardUrl origin>/docs/errors.
   */
  docsBaseUrl?: string;
  /** For stateful resources: the table, its key, log groups. */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
}

/**
 * Reads the stage's configuration from CDK context (`-c key=value` or cdk.json):
 * - `stage` (default `dev`): names the stack `svc-payments-<stage>`; `prod` is a production stage.
 * - `checkoutDomain`, `apiDomain` (required for production stages; without them a stage uses the CloudFront and
 *   execute-api default domains): each with `checkoutCertificateArn` / `apiCertificateArn`, or with `hostedZoneId`
 *   and `hostedZoneName` of a Route 53 zone in which the stack validates a new certificate and adds alias records.
 *   checkoutBaseUrl is then https://{checkoutDomain}.
 * - `apiThrottleRateLimit`, `apiThrottleBurstLimit` (defaults 200 and 400): API Gateway stage throttling.
 * - `wafRateLimitPerIp` (default {@link DEFAULT_WAF_RATE_LIMIT_PER_IP}): AWS WAF's per-IP flood guard, per 5 minutes.
 * - each gateway's base URL under its connector's context key (`bankDirectUrl`, `bankOtpUrl`, `cardProcessorUrl`,
 *   `mercantilUrl`, ...; docs/connectors.md): each one not given is read at deploy time from the SSM parameter
 *   {@link gatewayUrlParameterName}. A network whose test environment lives elsewhere has a second key
 *   (`mercantilTestUrl`), defaulting to the test base URL the network publishes.
 * - `alarmEmail`: subscribed to the on-call alarm topic.
 *
 * @example
 * const config = readStageConfig(app.node); // npx cdk synth -c stage=prod -c checkoutDomain=pay.example.com -c apiDomain=api.pay.example.com -c hostedZoneId=Z123 -c hostedZoneName=pay.example.com
 */
export function readStageConfig(node: Node): StageConfig {
  const stage = contextString(node, 'stage') ?? 'dev';
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    throw new Error(`Context stage must be lowercase letters, digits and dashes (at most 20), starting with a letter; got "${stage}".`);
  }
  const production = PRODUCTION_STAGES.has(stage);
  if (contextString(node, 'checkoutBaseUrl') !== undefined) {
    throw new Error('Context checkoutBaseUrl is no longer read: give -c checkoutDomain=<name> (with its certificate), and checkout links become https://<name>.');
  }
  const { checkoutDomain, apiDomain, hostedZone } = readDomains(node, stage, production);
  const docsBaseUrl = contextString(node, 'docsBaseUrl');
  return {
    stage,
    production,
    // checkoutUrl is built as {checkoutBaseUrl}/checkout?session=...
    checkoutBaseUrl: checkoutDomain ? `https://${checkoutDomain.name}` : DEFAULT_CHECKOUT_BASE_URL,
    checkoutDomain,
    apiDomain,
    hostedZone,
    apiThrottle: {
      rateLimit: contextNumber(node, 'apiThrottleRateLimit') ?? DEFAULT_API_THROTTLE_RATE_LIMIT,
      burstLimit: contextNumber(node, 'apiThrottleBurstLimit') ?? DEFAULT_API_THROTTLE_BURST_LIMIT,
    },
    wafRateLimitPerIp: contextNumber(node, 'wafRateLimitPerIp') ?? DEFAULT_WAF_RATE_LIMIT_PER_IP,
    gatewayUrls: Object.fromEntries(
      GATEWAY_IDS.flatMap((id) => {
        const key = GATEWAY_URL_CONTEXT_KEYS[id];
        const url = contextString(node, key);
        return url === undefined ? [] : [[id, httpsUrl(key, url)]];
      }),
    ),
    gatewayTestUrls: Object.fromEntries(
      GATEWAY_IDS.flatMap((id) => {
        const test = gatewayProfile(id).testEndpoint;
        return test ? [[id, httpsUrl(test.contextKey, contextString(node, test.contextKey) ?? test.published)]] : [];
      }),
    ),
    alarmEmail: contextString(node, 'alarmEmail'),
    docsBaseUrl: docsBaseUrl === undefined ? undefined : httpsUrl('docsBaseUrl', docsBaseUrl),
    removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    logRetention: production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
  };
}

export const stackNameFor = (stage: string) => `svc-payments-${stage}`;

/** Where a stage deploys: both always explicit, never a default the CDK CLI fills in. */
export interface StageEnvironment {
  account: string;
  region: string;
}

/**
 * The account and region of the stack, from context (`-c account=123456789012 -c region=eu-west-1`), else from what
 * the CDK CLI found in the caller's AWS configuration (CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION, set only when
 * credentials resolve). Without both it throws: an environment-agnostic template would resolve the region at deploy
 * time, and lookups or the CloudFront certificate rule (us-east-1) could not be checked at synth.
 *
 * @example
 * const env = readStageEnvironment(app.node); // npx cdk synth -c account=123456789012 -c region=eu-west-1
 */
export function readStageEnvironment(node: Node, env: NodeJS.ProcessEnv = process.env): StageEnvironment {
  const account = contextString(node, 'account') ?? env.CDK_DEFAULT_ACCOUNT;
  const region = contextString(node, 'region') ?? env.CDK_DEFAULT_REGION;
  if (!account || !region) {
    throw new Error(
      'The stack needs its AWS account and region: pass -c account=<12-digit id> -c region=<region, e.g. eu-west-1>, ' +
        'or run the CDK CLI with credentials and a region configured (it sets CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION). ' +
        `Missing: ${[!account && 'account', !region && 'region'].filter(Boolean).join(' and ')}.`,
    );
  }
  if (!/^\d{12}$/.test(account)) throw new Error(`Context account must be a 12-digit AWS account id; got "${account}".`);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) throw new Error(`Context region must be an AWS region such as eu-west-1; got "${region}".`);
  return { account, region };
}

/** Where a stage keeps a gateway's base URL when context does not give it (a String parameter, created by hand). */
export const gatewayUrlParameterName = (stage: string, gateway: GatewayId) => `/svc-payments/${stage}/gateways/${gateway}/url`;

/** Context keys of the custom domains, named in every error about them. */
const DOMAIN_KEYS = {
  checkout: { domain: 'checkoutDomain', certificate: 'checkoutCertificateArn' },
  api: { domain: 'apiDomain', certificate: 'apiCertificateArn' },
} as const;

/**
 * The custom domains: production needs both (a checkout link on a CloudFront default domain can be neither kept nor
 * moved), each with a certificate ARN or a hosted zone to make one in. Other stages may give them or not.
 */
function readDomains(node: Node, stage: string, production: boolean): Pick<StageConfig, 'checkoutDomain' | 'apiDomain' | 'hostedZone'> {
  const zoneId = contextString(node, 'hostedZoneId');
  const zoneName = contextString(node, 'hostedZoneName')?.replace(/\.$/, '');
  if ((zoneId === undefined) !== (zoneName === undefined)) throw new Error('Give both -c hostedZoneId=<id> and -c hostedZoneName=<zone name>, or neither.');
  const hostedZone = zoneId && zoneName ? { id: zoneId, name: zoneName.toLowerCase() } : undefined;
  const domain = (which: keyof typeof DOMAIN_KEYS): CustomDomain | undefined => {
    const keys = DOMAIN_KEYS[which];
    const name = contextString(node, keys.domain)?.toLowerCase();
    const certificateArn = contextString(node, keys.certificate);
    if (!name) {
      if (production) {
        throw new Error(
          `Stage ${stage} needs its ${which} domain: -c ${keys.domain}=<name> with -c ${keys.certificate}=<ACM ARN> or -c hostedZoneId=<id> -c hostedZoneName=<zone> (docs/runbook.md, "Domains and certificates").`,
        );
      }
      if (certificateArn) throw new Error(`Context ${keys.certificate} is given without ${keys.domain}.`);
      return undefined;
    }
    if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(name)) throw new Error(`Context ${keys.domain} must be a domain name such as pay.example.com; got "${name}".`);
    if (certificateArn !== undefined && !/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/.test(certificateArn)) {
      throw new Error(`Context ${keys.certificate} must be an ACM certificate ARN; got "${certificateArn}".`);
    }
    // CloudFront takes certificates from us-east-1 only.
    if (which === 'checkout' && certificateArn !== undefined && certificateArn.split(':')[3] !== 'us-east-1') {
      throw new Error(`Context ${keys.certificate} must be a certificate in us-east-1 (CloudFront reads certificates only there); got "${certificateArn}".`);
    }
    if (!certificateArn && !hostedZone) throw new Error(`Context ${keys.domain} needs -c ${keys.certificate}=<ACM ARN>, or -c hostedZoneId and -c hostedZoneName to create one.`);
    if (hostedZone && name !== hostedZone.name && !name.endsWith(`.${hostedZone.name}`)) throw new Error(`Context ${keys.domain} "${name}" is not in the hosted zone ${hostedZone.name}.`);
    return certificateArn ? { name, certificateArn } : { name };
  };
  return { checkoutDomain: domain('checkout'), apiDomain: domain('api'), hostedZone };
}

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

/** An https:// URL without trailing slashes. */
function httpsUrl(key: string, value: string): string {
  const url = URL.parse(value);
  if (!url || url.protocol !== 'https:') throw new Error(`Context ${key} must be an https:// URL; got "${value}".`);
  return value.replace(/\/+$/, '');
}
