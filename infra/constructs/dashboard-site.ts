import { DockerImage, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IRestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { DASHBOARD_PATH, writeDashboard } from '../../dashboard/build.ts';
import { ASSET_CACHE_CONTROL, DASHBOARD_CSP, DASHBOARD_PERMISSIONS_POLICY, DASHBOARD_SECURITY_HEADERS, PAGE_CACHE_CONTROL } from '../../dashboard/page-headers.ts';
import type { StageConfig } from '../stage-config.ts';

export interface DashboardSiteProps {
  config: StageConfig;
  /** The /v1 API: CloudFront forwards /v1/* to its stage, so the dashboard calls the API on its own origin. */
  restApi: IRestApi;
  /** A built dashboard (index.html and assets/, as `npx tsx dashboard/build.ts` writes). Default: a fresh build at synth. */
  assetDir?: string;
}

/** /dashboard and /dashboard/ are the page (it routes with the URL's fragment); S3 holds it as dashboard/index.html. */
const PAGE_REWRITE = `function handler(event) {
  var request = event.request;
  if (request.uri === '${DASHBOARD_PATH}' || request.uri === '${DASHBOARD_PATH}/') request.uri = '${DASHBOARD_PATH}/index.html';
  return request;
}`;

/**
 * The merchants' dashboard in AWS: a private bucket behind CloudFront (origin access control), HTTPS only, the same
 * CSP and security headers as the sandbox serves (dashboard/page-headers.ts), and every /v1/* call routed to the API
 * stage, uncached, with the user's Authorization header: one origin, so no CORS and a CSP of 'self'.
 *
 * @example
 * const site = new DashboardSite(this, 'DashboardSite', { config, restApi: api.restApi });
 * new CfnOutput(this, 'DashboardUrl', { value: `${site.url}/dashboard/` });
 */
export class DashboardSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** https://<distribution domain>, no trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, { config, restApi, assetDir }: DashboardSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: config.removalPolicy,
      autoDeleteObjects: config.removalPolicy === RemovalPolicy.DESTROY,
    });

    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `svc-payments ${config.stage}: dashboard security headers`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: DASHBOARD_CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, preload: true, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: DASHBOARD_PERMISSIONS_POLICY, override: true },
          { header: 'Cross-Origin-Opener-Policy', value: DASHBOARD_SECURITY_HEADERS['Cross-Origin-Opener-Policy']!, override: true },
        ],
      },
    });

    const stack = Stack.of(this);
    // By id, not restApi.url: the URL names the deployment stage, which depends on every route function.
    const apiOrigin = new HttpOrigin(`${restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      originPath: `/${config.stage}`,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `svc-payments ${config.stage}: merchant dashboard`,
      httpVersion: HttpVersion.HTTP2_AND_3,
      // Merchants are in Venezuela: South American edge locations are only in the full price class.
      priceClass: PriceClass.PRICE_CLASS_ALL,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [
          {
            eventType: FunctionEventType.VIEWER_REQUEST,
            function: new CloudFrontFunction(this, 'PageRewrite', { code: FunctionCode.fromInline(PAGE_REWRITE), runtime: FunctionRuntime.JS_2_0 }),
          },
        ],
      },
      additionalBehaviors: {
        '/v1/*': {
          origin: apiOrigin,
          // Tokens, keys and bank credentials are never sent over plain HTTP, not even to be redirected.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          // Nothing cached: with caching disabled, the all-viewer policy forwards Authorization (the user's token),
          // Svc-Mode and Idempotency-Key; the host header is the API's own.
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    const source = assetDir ? Source.asset(assetDir) : freshBuild();
    const deploymentLogs = new LogGroup(this, 'DeploymentLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    // Assets first, never pruned: a dashboard already open keeps loading the assets it names after a new deployment.
    const assets = new BucketDeployment(this, 'Assets', {
      sources: [source],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'dashboard/',
      exclude: ['index.html'],
      cacheControl: [CacheControl.fromString(ASSET_CACHE_CONTROL)],
      prune: false,
      logGroup: deploymentLogs,
    });
    const page = new BucketDeployment(this, 'Page', {
      sources: [source],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'dashboard/',
      exclude: ['*'],
      include: ['index.html'],
      cacheControl: [CacheControl.fromString(PAGE_CACHE_CONTROL)],
      prune: false,
      logGroup: deploymentLogs,
      distribution: this.distribution,
      distributionPaths: [DASHBOARD_PATH, `${DASHBOARD_PATH}/`, `${DASHBOARD_PATH}/index.html`],
    });
    page.node.addDependency(assets);

    NagSuppressions.addResourceSuppressions(this.bucket, [
      { id: 'AwsSolutions-S1', reason: 'The bucket holds only the static dashboard files, read by CloudFront alone; every merchant action is an API call, logged and audited there.' },
    ]);
    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: 'Merchants work from any country; no geographic restriction by design.' },
      { id: 'AwsSolutions-CFR2', reason: "The /v1/* calls go on to the API stage, whose regional WAF web ACL inspects them; the dashboard's files are static." },
      { id: 'AwsSolutions-CFR3', reason: 'API calls through the distribution are logged by the API access logs, WAF and the audit log; reads of the static files hold nothing to keep.' },
      { id: 'AwsSolutions-CFR4', reason: 'The default *.cloudfront.net certificate cannot set a minimum TLS version; a custom domain attached to this distribution gets TLSv1.2_2021.' },
    ]);
    for (const provider of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      NagSuppressions.addResourceSuppressions(provider, [
        { id: 'AwsSolutions-IAM4', reason: "CDK's deployment handler logs with AWS's basic execution policy; it runs only during deployments." },
        { id: 'AwsSolutions-IAM5', reason: "CDK's deployment handler copies whole asset prefixes: object wildcards on the CDK asset bucket and the sites' buckets only." },
        { id: 'AwsSolutions-L1', reason: "CDK's deployment handler's runtime is CDK's to set; it runs only during deployments." },
      ], true);
    }
  }
}

const DASHBOARD_SOURCES = fileURLToPath(new URL('../../dashboard/', import.meta.url));

/** Built at synth by CDK's local bundling into its own staging folder; the image is never pulled. */
function freshBuild() {
  return Source.asset(DASHBOARD_SOURCES, {
    exclude: ['dist'],
    bundling: {
      image: DockerImage.fromRegistry('unused-local-bundling'),
      local: { tryBundle: (outputDir) => (writeDashboard(outputDir), true) },
    },
  });
}
