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
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type IOrigin,
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
import { ASSET_CACHE_CONTROL, PAGE_CACHE_CONTROL } from '../../checkout/page-headers.ts';
import { EDGE_MARKER_HEADER } from '../../shared/http/client-address.ts';
import { clientIpFunctionCode } from './api-firewall.ts';
import type { EdgeMarker } from './edge-marker.ts';
import { SITE_ICON_CACHE_CONTROL, SITE_ICON_DIR, SITE_ICON_PATH } from '../site-icon.ts';
import type { CustomDomain, HostedZoneRef, StageConfig } from '../stage-config.ts';

/** One of our static pages (the checkout, the dashboard), as its build module and page-headers.ts define it. */
export interface StaticPage {
  /** Where the page lives, e.g. /checkout: CloudFront serves it there and S3 holds it under the same prefix. */
  path: string;
  /** The page's sources (index.html, src/), bundled at synth by `write`. */
  sourceDir: string;
  /** Writes a fresh build (index.html and assets/) into a folder. */
  write(outDir: string): unknown;
  /**
   * The headers the sandbox sends with every file of the page: CloudFront sends the same Content-Security-Policy,
   * Referrer-Policy, X-Frame-Options, Permissions-Policy and Cross-Origin-Opener-Policy, plus HSTS and nosniff.
   */
  securityHeaders: Record<string, string>;
}

/** Why cdk-nag's findings on a site do not apply to it: recorded in the template next to each resource. */
export interface StaticSiteNagReasons {
  /** AwsSolutions-S1: the bucket has no server access logs. */
  bucketAccessLogs: string;
  /** AwsSolutions-CFR1: no geographic restriction. */
  geoRestriction: string;
  /** AwsSolutions-CFR2: no WAF web ACL on the distribution. */
  edgeFirewall: string;
  /** AwsSolutions-CFR3: no distribution access logs. */
  distributionAccessLogs: string;
  /** AwsSolutions-CFR4: the default certificate, used only when the site has no custom domain. */
  defaultCertificate: string;
}

export interface StaticSiteProps {
  config: StageConfig;
  page: StaticPage;
  /** The /v1 API: the site's API behaviours forward to its stage, so the page calls the API on its own origin. */
  restApi: IRestApi;
  /** The value the site's API origin sends in X-Svc-Edge, the WAF's proof a request came through our edge. */
  edgeMarker: EdgeMarker;
  /**
   * The cache behaviours that reach the API, by path pattern, in CloudFront's matching order. `scope` is the site,
   * for any policy they create.
   */
  apiBehaviors(apiOrigin: IOrigin, scope: Construct): Record<string, BehaviorOptions>;
  /** The distribution's and the security headers policy's comments (after "svc-payments <stage>: "). */
  comments: { distribution: string; securityHeaders: string };
  nagReasons: StaticSiteNagReasons;
  /** A custom domain (CloudFront alias); `certificateContextKey` is named in the error when its certificate must be given. */
  domain?: CustomDomain & { certificateContextKey: string };
  /** Where the site's certificate is validated and its alias records go, if the stage gives one. */
  hostedZone?: HostedZoneRef;
  /** A built page (index.html and assets/, as the page's build writes them). Default: a fresh build at synth. */
  assetDir?: string;
  /**
   * Pages served beside the page under their own path, e.g. the docs at /docs (infra/docs-site.ts): `<path>/` is
   * `index.html` and `<path>/<name>` is `<name>.html`, built at synth by `write`.
   */
  pages?: { path: string; sourceDir: string; write(outDir: string): unknown };
}

/** What the stack gives each of our sites; the rest of StaticSiteProps is the site's own. */
export type SiteProps = Pick<StaticSiteProps, 'config' | 'restApi' | 'edgeMarker' | 'assetDir'>;

/**
 * One of our static pages in AWS: a private bucket behind CloudFront (origin access control), HTTPS only, the same
 * security headers and CSP as the sandbox serves, the API behaviours the page needs on its own origin, and
 * optionally a custom domain with its certificate and alias records. The page is deployed as assets first (never
 * pruned), then index.html (revalidated, invalidated).
 *
 * @example
 * class CheckoutSite extends StaticSite {
 *   constructor(scope: Construct, id: string, { config, restApi }: { config: StageConfig; restApi: IRestApi }) {
 *     super(scope, id, { config, restApi, page: CHECKOUT_PAGE, apiBehaviors: (origin) => ({ '/v1/checkout/*': { origin } }), comments, nagReasons });
 *   }
 * }
 */
export class StaticSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** https://<custom domain>, else https://<distribution domain>; no trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);
    const { config, page, restApi, domain, assetDir } = props;
    const stack = Stack.of(this);
    const zone = props.hostedZone && HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: props.hostedZone.id, zoneName: props.hostedZone.name });

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: config.removalPolicy,
      autoDeleteObjects: config.removalPolicy === RemovalPolicy.DESTROY,
    });

    const header = (name: string): string => {
      const value = page.securityHeaders[name];
      if (value === undefined) throw new Error(`The page at ${page.path} names no ${name} header in its security headers.`);
      return value;
    };
    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `svc-payments ${config.stage}: ${props.comments.securityHeaders}`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: header('Content-Security-Policy'), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: header('X-Frame-Options') as HeadersFrameOption, override: true },
        referrerPolicy: { referrerPolicy: header('Referrer-Policy') as HeadersReferrerPolicy, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, preload: true, override: true },
      },
      customHeadersBehavior: {
        customHeaders: ['Permissions-Policy', 'Cross-Origin-Opener-Policy'].map((name) => ({ header: name, value: header(name), override: true })),
      },
    });

    // By id, not restApi.url: the URL names the deployment stage, which depends on every route function, and those
    // functions get the checkout's address: a dependency cycle.
    const apiOrigin = new HttpOrigin(`${restApi.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      originPath: `/${config.stage}`,
      // The WAF's proof a request came through our edge, so it trusts the client address the edge adds (api-firewall.ts).
      customHeaders: { [EDGE_MARKER_HEADER]: props.edgeMarker.value },
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `svc-payments ${config.stage}: ${props.comments.distribution}`,
      ...(domain ? { domainNames: [domain.name], certificate: this.certificate(domain, zone), minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 } : {}),
      httpVersion: HttpVersion.HTTP2_AND_3,
      // Buyers and merchants are in Venezuela: South American edge locations are only in the full price class.
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
            function: new CloudFrontFunction(this, 'PageRewrite', { code: FunctionCode.fromInline(pageRewrite(page.path, props.pages?.path)), runtime: FunctionRuntime.JS_2_0 }),
          },
        ],
      },
      additionalBehaviors: this.withClientAddress(props.apiBehaviors(apiOrigin, this)),
    });
    this.url = domain ? `https://${domain.name}` : `https://${this.distribution.distributionDomainName}`;
    if (domain && zone) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
      new ARecord(this, 'AliasRecord', { zone, recordName: domain.name, target });
      new AaaaRecord(this, 'AliasRecordIpv6', { zone, recordName: domain.name, target });
    }

    this.deploy(page, assetDir ? Source.asset(assetDir) : freshBuild(page), config);
    if (props.pages) this.deployPages(props.pages);
    this.deployIcon();
    this.suppressNagFindings(props.nagReasons, !domain);
  }

  /** The API behaviours, each adding the viewer's address as X-Svc-Client-Ip: per-client limits see the client, not the edge. */
  private withClientAddress(behaviors: Record<string, BehaviorOptions>): Record<string, BehaviorOptions> {
    const clientIp = new CloudFrontFunction(this, 'ClientAddress', { code: FunctionCode.fromInline(clientIpFunctionCode()), runtime: FunctionRuntime.JS_2_0 });
    return Object.fromEntries(
      Object.entries(behaviors).map(([path, behavior]) => [
        path,
        { ...behavior, functionAssociations: [...(behavior.functionAssociations ?? []), { eventType: FunctionEventType.VIEWER_REQUEST, function: clientIp }] },
      ]),
    );
  }

  /** Assets first, never pruned: a page already open keeps loading the assets it names after a new deployment. */
  private deploy(page: StaticPage, source: ReturnType<typeof Source.asset>, config: StageConfig): void {
    const prefix = `${page.path.slice(1)}/`;
    // Both deployments run in CDK's one handler function: they must name the same log group, given a retention here.
    const logGroup = new LogGroup(this, 'DeploymentLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    const assets = new BucketDeployment(this, 'Assets', {
      sources: [source],
      destinationBucket: this.bucket,
      destinationKeyPrefix: prefix,
      exclude: ['index.html'],
      cacheControl: [CacheControl.fromString(ASSET_CACHE_CONTROL)],
      prune: false,
      logGroup,
    });
    const index = new BucketDeployment(this, 'Page', {
      sources: [source],
      destinationBucket: this.bucket,
      destinationKeyPrefix: prefix,
      exclude: ['*'],
      include: ['index.html'],
      cacheControl: [CacheControl.fromString(PAGE_CACHE_CONTROL)],
      prune: false,
      logGroup,
      distribution: this.distribution,
      distributionPaths: [page.path, `${page.path}/`, `${page.path}/index.html`],
    });
    index.node.addDependency(assets);
  }

  /** Pages that link only to each other and one content-hashed stylesheet: replaced whole, revalidated, invalidated. */
  private deployPages(pages: NonNullable<StaticSiteProps['pages']>): void {
    new BucketDeployment(this, 'Pages', {
      sources: [freshBuild(pages)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${pages.path.slice(1)}/`,
      cacheControl: [CacheControl.fromString(PAGE_CACHE_CONTROL)],
      logGroup: this.node.findChild('DeploymentLogs') as LogGroup,
      distribution: this.distribution,
      distributionPaths: [`${pages.path}/*`, pages.path],
    });
  }

  /** /favicon.ico at the site's root, where browsers ask for it on every page; nothing else there is touched (no prune). */
  private deployIcon(): void {
    new BucketDeployment(this, 'Icon', {
      sources: [Source.asset(SITE_ICON_DIR)],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString(SITE_ICON_CACHE_CONTROL)],
      prune: false,
      logGroup: this.node.findChild('DeploymentLogs') as LogGroup,
      distribution: this.distribution,
      distributionPaths: [SITE_ICON_PATH],
    });
  }

  private suppressNagFindings(reasons: StaticSiteNagReasons, defaultCertificate: boolean): void {
    NagSuppressions.addResourceSuppressions(this.bucket, [{ id: 'AwsSolutions-S1', reason: reasons.bucketAccessLogs }]);
    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: reasons.geoRestriction },
      { id: 'AwsSolutions-CFR2', reason: reasons.edgeFirewall },
      { id: 'AwsSolutions-CFR3', reason: reasons.distributionAccessLogs },
      ...(defaultCertificate ? [{ id: 'AwsSolutions-CFR4', reason: reasons.defaultCertificate }] : []),
    ]);
    // CDK's BucketDeployment handler: one per stack, outside this construct, with its own role and runtime.
    for (const provider of Stack.of(this).node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      NagSuppressions.addResourceSuppressions(provider, [
        { id: 'AwsSolutions-IAM4', reason: "CDK's deployment handler logs with AWS's basic execution policy; it runs only during deployments." },
        { id: 'AwsSolutions-IAM5', reason: "CDK's deployment handler copies whole asset prefixes: object wildcards on the CDK asset bucket and the sites' buckets only." },
        { id: 'AwsSolutions-L1', reason: "CDK's deployment handler's runtime is CDK's to set; it runs only during deployments." },
      ], true);
    }
  }

  /**
   * The stage's certificate, or one validated in its hosted zone. CloudFront reads certificates in us-east-1 only, so
   * a created one needs the stack there; elsewhere the stage gives the certificate's ARN (docs/runbook.md).
   */
  private certificate({ name, certificateArn, certificateContextKey }: NonNullable<StaticSiteProps['domain']>, zone: IHostedZone | undefined): ICertificate {
    if (certificateArn) return Certificate.fromCertificateArn(this, 'Certificate', certificateArn);
    const { region } = Stack.of(this);
    if (region !== 'us-east-1') {
      throw new Error(
        `CloudFront needs the certificate of ${name} in us-east-1 and this stack is in ${region}: request one there and give -c ${certificateContextKey}=<ARN> (docs/runbook.md, "Domains and certificates").`,
      );
    }
    return new Certificate(this, 'Certificate', { domainName: name, validation: CertificateValidation.fromDns(zone) });
  }
}

/**
 * `<path>` and `<path>/` are the page (which routes by query or fragment); S3 holds it as `<path>/index.html`. With
 * pages beside it, `<pages>/` is their index.html and `<pages>/<name>` (no extension) is `<name>.html`.
 */
function pageRewrite(path: string, pagesPath?: string): string {
  const pages = pagesPath
    ? `
  else if (request.uri === '${pagesPath}' || request.uri === '${pagesPath}/') request.uri = '${pagesPath}/index.html';
  else if (/^${pagesPath.replace(/\//g, '\\/')}\/[a-z0-9-]+$/.test(request.uri)) request.uri = request.uri + '.html';`
    : '';
  return `function handler(event) {
  var request = event.request;
  if (request.uri === '${path}' || request.uri === '${path}/') request.uri = '${path}/index.html';${pages}
  return request;
}`;
}

/**
 * The page built at synth by CDK's local bundling into its own staging folder, so a deployment never ships a stale
 * dist/ and nothing is left in a temporary folder. The image is never pulled: local bundling always succeeds.
 */
function freshBuild(page: Pick<StaticPage, 'sourceDir' | 'write'>) {
  return Source.asset(page.sourceDir, {
    exclude: ['dist'],
    bundling: {
      image: DockerImage.fromRegistry('unused-local-bundling'),
      local: { tryBundle: (outputDir) => (page.write(outputDir), true) },
    },
  });
}
