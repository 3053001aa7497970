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
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { AaaaRecord, ARecord, HostedZone, RecordTarget, type IHostedZone } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { CHECKOUT_PATH, writeCheckout } from '../../checkout/build.ts';
import { ASSET_CACHE_CONTROL, CHECKOUT_CSP, CHECKOUT_PERMISSIONS_POLICY, CHECKOUT_SECURITY_HEADERS, PAGE_CACHE_CONTROL } from '../../checkout/page-headers.ts';
import type { StageConfig } from '../stage-config.ts';

export interface CheckoutSiteProps {
  config: StageConfig;
  /** The /v1 API: CloudFront forwards /v1/checkout/* to its stage, so the page calls its API on its own origin. */
  restApi: IRestApi;
  /** A built page (index.html and assets/, as `npm run build:checkout` writes). Default: a fresh build at synth. */
  assetDir?: string;
}

/** Anything a Lambda-like function offers to receive the page's address. */
interface AcceptsEnvironment {
  addEnvironment(key: string, value: string): unknown;
}

/** /checkout?session=... is the page; S3 holds it as checkout/index.html. */
const PAGE_REWRITE = `function handler(event) {
  var request = event.request;
  if (request.uri === '${CHECKOUT_PATH}' || request.uri === '${CHECKOUT_PATH}/') request.uri = '${CHECKOUT_PATH}/index.html';
  return request;
}`;

/**
 * The buyer's checkout page in AWS: a private bucket behind CloudFront (origin access control), HTTPS only, the
 * same security headers and CSP as the sandbox serves (checkout/page-headers.ts), and /v1/checkout/* routed to
 * the API. `url` is the base of every session's checkoutUrl.
 *
 * @example
 * const site = new CheckoutSite(this, 'CheckoutSite', { config, restApi: api.restApi });
 * site.useAsCheckoutBaseUrl(Object.values(api.routeFunctions).map((f) => f.function));
 */
export class CheckoutSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** https://<checkoutDomain>, else https://<distribution domain>; no trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, { config, restApi, assetDir }: CheckoutSiteProps) {
    super(scope, id);
    const disposable = config.removalPolicy === RemovalPolicy.DESTROY;
    const stack = Stack.of(this);
    const domain = config.checkoutDomain;
    const zone = config.hostedZone && HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: config.hostedZone.id, zoneName: config.hostedZone.name });

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: config.removalPolicy,
      autoDeleteObjects: disposable,
    });

    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `svc-payments ${config.stage}: checkout page security headers`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CHECKOUT_CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, preload: true, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: CHECKOUT_PERMISSIONS_POLICY, override: true },
          { header: 'Cross-Origin-Opener-Policy', value: CHECKOUT_SECURITY_HEADERS['Cross-Origin-Opener-Policy']!, override: true },
        ],
      },
    });

    // By id, not restApi.url: the URL names the deployment stage, which depends on every route function, and those
    // functions get this distribution's address: a dependency cycle.
    const apiOrigin = new HttpOrigin(`${restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      originPath: `/${config.stage}`,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `svc-payments ${config.stage}: checkout page`,
      ...(domain ? { domainNames: [domain.name], certificate: this.certificate(domain.name, domain.certificateArn, zone), minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 } : {}),
      httpVersion: HttpVersion.HTTP2_AND_3,
      // Buyers are in Venezuela: South American edge locations are only in the full price class.
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
        // Listed first, as CloudFront matches in order. Logos are cached at the edge: the hash in the path changes
        // with the image. Accept is forwarded (outside the cache key) because API Gateway returns a Lambda's base64
        // body as bytes only when the request accepts a binary media type (infra/constructs/api.ts).
        '/v1/checkout/logos/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          originRequestPolicy: new OriginRequestPolicy(this, 'LogoRequests', {
            comment: 'Checkout logos: the Accept header only, so API Gateway answers bytes',
            headerBehavior: OriginRequestHeaderBehavior.allowList('Accept'),
          }),
        },
        '/v1/checkout/*': {
          origin: apiOrigin,
          // Card data is never sent over plain HTTP, not even to be redirected.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // The API's own host header, or API Gateway would not know the request; everything else as the browser sent it.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    this.url = domain ? `https://${domain.name}` : `https://${this.distribution.distributionDomainName}`;
    if (domain && zone) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'AliasRecord', { zone, recordName: domain.name, target });
      new AaaaRecord(this, 'AliasRecordIpv6', { zone, recordName: domain.name, target });
    }

    const source = assetDir ? Source.asset(assetDir) : freshBuild();
    // Both deployments run in CDK's one handler function: they must name the same log group, given a retention here.
    const deploymentLogs = new LogGroup(this, 'DeploymentLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    // Assets first, never pruned: a page already open keeps loading the assets it names after a new deployment.
    const assets = new BucketDeployment(this, 'Assets', {
      sources: [source],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'checkout/',
      exclude: ['index.html'],
      cacheControl: [CacheControl.fromString(ASSET_CACHE_CONTROL)],
      prune: false,
      logGroup: deploymentLogs,
    });
    const page = new BucketDeployment(this, 'Page', {
      sources: [source],
      destinationBucket: this.bucket,
      destinationKeyPrefix: 'checkout/',
      exclude: ['*'],
      include: ['index.html'],
      cacheControl: [CacheControl.fromString(PAGE_CACHE_CONTROL)],
      prune: false,
      logGroup: deploymentLogs,
      distribution: this.distribution,
      distributionPaths: [CHECKOUT_PATH, `${CHECKOUT_PATH}/`, `${CHECKOUT_PATH}/index.html`],
    });
    page.node.addDependency(assets);

    NagSuppressions.addResourceSuppressions(this.bucket, [
      { id: 'AwsSolutions-S1', reason: 'The bucket holds only the public static checkout page, read by CloudFront alone; there is nothing to audit.' },
    ]);
    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: 'Buyers pay from any country; no geographic restriction by design.' },
      { id: 'AwsSolutions-CFR2', reason: 'The /v1/checkout/* calls go on to the API stage, whose regional WAF web ACL inspects them; the page itself is static.' },
      { id: 'AwsSolutions-CFR3', reason: 'API calls through the distribution are logged by the API access logs and WAF; reads of the static page hold nothing to keep.' },
    ]);
    if (!domain) {
      NagSuppressions.addResourceSuppressions(this.distribution, [
        { id: 'AwsSolutions-CFR4', reason: 'Only stages without checkoutDomain (never production, which requires it) use the default *.cloudfront.net certificate, which cannot set a minimum TLS version; with checkoutDomain the distribution requires TLSv1.2_2021.' },
      ]);
    }
    // CDK's BucketDeployment handler: one per stack, outside this construct, with its own role and runtime.
    for (const provider of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      NagSuppressions.addResourceSuppressions(provider, [
        { id: 'AwsSolutions-IAM4', reason: "CDK's deployment handler logs with AWS's basic execution policy; it runs only during deployments." },
        { id: 'AwsSolutions-IAM5', reason: "CDK's deployment handler copies whole asset prefixes: object wildcards on the CDK asset bucket and this site's bucket only." },
        { id: 'AwsSolutions-L1', reason: "CDK's deployment handler's runtime is CDK's to set; it runs only during deployments." },
      ], true);
    }
  }

  /** Makes this site's address (its custom domain, or the distribution's) the base of every checkoutUrl the functions build. */
  useAsCheckoutBaseUrl(functions: AcceptsEnvironment[]): void {
    for (const fn of functions) fn.addEnvironment('CHECKOUT_BASE_URL', this.url);
  }

  /**
   * The stage's certificate, or one validated in its hosted zone. CloudFront reads certificates in us-east-1 only, so
   * a created one needs the stack there; elsewhere the stage gives checkoutCertificateArn (docs/runbook.md).
   */
  private certificate(domainName: string, certificateArn: string | undefined, zone: IHostedZone | undefined): ICertificate {
    if (certificateArn) return Certificate.fromCertificateArn(this, 'Certificate', certificateArn);
    const { region } = Stack.of(this);
    if (region !== 'us-east-1') {
      throw new Error(
        `CloudFront needs the checkout certificate in us-east-1 and this stack is in ${region}: request one there for ${domainName} and give -c checkoutCertificateArn=<ARN> (docs/runbook.md, "Domains and certificates").`,
      );
    }
    return new Certificate(this, 'Certificate', { domainName, validation: CertificateValidation.fromDns(zone) });
  }
}

const CHECKOUT_SOURCES = fileURLToPath(new URL('../../checkout/', import.meta.url));

/**
 * The page built at synth by CDK's local bundling into its own staging folder, so a deployment never ships a stale
 * checkout/dist and nothing is left in a temporary folder. The image is never pulled: local bundling always succeeds.
 */
function freshBuild() {
  return Source.asset(CHECKOUT_SOURCES, {
    exclude: ['dist'],
    bundling: {
      image: DockerImage.fromRegistry('unused-local-bundling'),
      local: { tryBundle: (outputDir) => (writeCheckout(outputDir), true) },
    },
  });
}
