import { App, Aspects, Stack } from 'aws-cdk-lib';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_CSP } from '../../checkout/page-headers.ts';
import { DASHBOARD_CSP } from '../../dashboard/page-headers.ts';
import { CheckoutSite } from '../../infra/constructs/checkout-site.ts';
import { DashboardSite } from '../../infra/constructs/dashboard-site.ts';
import { EdgeMarker } from '../../infra/constructs/edge-marker.ts';
import { readStageConfig } from '../../infra/stage-config.ts';

/** What every StaticSite does, checked on both of ours; what only the checkout does is in checkout-site.synth.test.ts. */
const SITES = [
  { name: 'CheckoutSite', Site: CheckoutSite, prefix: 'checkout', api: '/v1/checkout/*', csp: CHECKOUT_CSP, referrerPolicy: 'no-referrer' },
  { name: 'DashboardSite', Site: DashboardSite, prefix: 'dashboard', api: '/v1/*', csp: DASHBOARD_CSP, referrerPolicy: 'same-origin' },
] as const;

describe.each(SITES)('$name (StaticSite)', ({ name, Site, prefix, api, csp, referrerPolicy }) => {
  // The construct in a stack of its own, next to the API it routes to, checked by cdk-nag.
  const app = new App({ context: { stage: 'dev' } });
  const stack = new Stack(app, `${name}Test`);
  Aspects.of(stack).add(new AwsSolutionsChecks());
  const config = readStageConfig(app.node);
  const edgeMarker = new EdgeMarker(stack, 'EdgeMarker', { config });
  const site = new Site(stack, name, { config, restApi: RestApi.fromRestApiId(stack, 'Api', 'abc123'), edgeMarker });
  edgeMarker.rotateOn([site.distribution]);
  const template = Template.fromStack(stack);

  it('keeps the bucket private, TLS-only, and readable by CloudFront through origin access control', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
  });

  it(`serves /${prefix} over HTTPS only, with its CSP, referrer policy, no framing and HSTS`, () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https', ResponseHeadersPolicyId: Match.anyValue() }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: csp, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: referrerPolicy, Override: true },
          StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Preload: true, Override: true },
        },
      }),
    });
    const [fn] = Object.values(template.findResources('AWS::CloudFront::Function'));
    expect(fn?.Properties.FunctionCode).toContain(`request.uri = '/${prefix}/index.html'`);
  });

  it(`routes ${api} to the API stage on the same origin: HTTPS only, uncached, all methods, the viewer headers forwarded`, () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    const behaviour = (distribution.CacheBehaviors as { PathPattern: string; TargetOriginId: string }[]).find((b) => b.PathPattern === api);
    expect(behaviour).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']),
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
    });
    const origin = (distribution.Origins as { Id: string; DomainName: unknown }[]).find((o) => o.Id === behaviour!.TargetOriginId);
    expect(JSON.stringify(origin!.DomainName)).toContain('abc123.execute-api.');
    expect(origin).toMatchObject({ OriginPath: '/dev', CustomOriginConfig: { OriginProtocolPolicy: 'https-only' } });
  });

  it(`deploys the build under ${prefix}/: assets immutable first, then the page, revalidated and invalidated`, () => {
    // The dashboard's site also deploys the docs, under docs/ (test/infra/docs-base-url.synth.test.ts); the icon is at the root.
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((r) => r.Properties).filter((d) => d.DestinationBucketKeyPrefix !== 'docs/' && d.DestinationBucketKeyPrefix !== undefined);
    expect(deployments).toHaveLength(2);
    for (const d of deployments) expect(d).toMatchObject({ DestinationBucketKeyPrefix: `${prefix}/`, Prune: false });
    const page = deployments.find((d) => d.DistributionPaths)!;
    expect(page.DistributionPaths).toEqual(expect.arrayContaining([`/${prefix}`, `/${prefix}/`]));
    expect(page.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    const assets = deployments.find((d) => !d.DistributionPaths)!;
    expect(assets.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
  });

  it('serves /favicon.ico from the root of the bucket, pruning nothing there, cached a day and invalidated', () => {
    const icons = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((r) => r.Properties).filter((d) => d.DestinationBucketKeyPrefix === undefined);
    expect(icons).toEqual([expect.objectContaining({ Prune: false, DistributionPaths: ['/favicon.ico'], SystemMetadata: { 'cache-control': 'public, max-age=86400' } })]);
  });

  it('passes cdk-nag (AwsSolutions) with every exception given a reason', () => {
    const errors = Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
    expect(errors.map((e) => e.entry.data)).toEqual([]);
  });
});
