import { App, Stack } from 'aws-cdk-lib';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Aspects } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../dashboard/page-headers.ts';
import { DashboardSite } from '../../infra/constructs/dashboard-site.ts';
import { readStageConfig } from '../../infra/stage-config.ts';

/** The construct in a stack of its own, next to the API it routes to, checked by cdk-nag. */
function synthesize() {
  const app = new App({ context: { stage: 'dev' } });
  const stack = new Stack(app, 'DashboardSiteTest');
  Aspects.of(stack).add(new AwsSolutionsChecks());
  new DashboardSite(stack, 'DashboardSite', { config: readStageConfig(app.node), restApi: RestApi.fromRestApiId(stack, 'Api', 'abc123') });
  return { template: Template.fromStack(stack), stack };
}

describe('DashboardSite', () => {
  const { template, stack } = synthesize();
  const distribution = () => Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;

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

  it('serves the dashboard over HTTPS only, with its CSP, no framing and HSTS', () => {
    expect(distribution().DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https' });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: DASHBOARD_CSP, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'same-origin', Override: true },
          StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Preload: true, Override: true },
        },
      }),
    });
    const [fn] = Object.values(template.findResources('AWS::CloudFront::Function'));
    expect(fn?.Properties.FunctionCode).toContain("request.uri = '/dashboard/index.html'");
  });

  it('routes every /v1/* call to the API stage on the same origin: HTTPS only, uncached, all methods, the viewer headers forwarded', () => {
    const behaviours = distribution().CacheBehaviors as { PathPattern: string; [key: string]: unknown }[];
    const api = behaviours.find((b) => b.PathPattern === '/v1/*');
    expect(api).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: expect.arrayContaining(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']),
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
    });
    const origin = (distribution().Origins as { Id: string; DomainName: unknown; OriginPath?: string; CustomOriginConfig?: { OriginProtocolPolicy: string } }[]).find((o) => o.Id === api!.TargetOriginId);
    expect(JSON.stringify(origin!.DomainName)).toContain('abc123.execute-api.');
    expect(origin).toMatchObject({ OriginPath: '/dev', CustomOriginConfig: { OriginProtocolPolicy: 'https-only' } });
  });

  it('deploys the build under dashboard/: assets immutable first, then the page, revalidated and invalidated', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((r) => r.Properties);
    expect(deployments).toHaveLength(2);
    for (const d of deployments) expect(d).toMatchObject({ DestinationBucketKeyPrefix: 'dashboard/', Prune: false });
    const page = deployments.find((d) => d.DistributionPaths)!;
    expect(page.DistributionPaths).toEqual(expect.arrayContaining(['/dashboard', '/dashboard/']));
    expect(page.SystemMetadata).toMatchObject({ 'cache-control': 'no-cache' });
    const assets = deployments.find((d) => !d.DistributionPaths)!;
    expect(assets.SystemMetadata).toMatchObject({ 'cache-control': 'public, max-age=31536000, immutable' });
  });

  it('passes cdk-nag (AwsSolutions) with every exception given a reason', () => {
    const errors = Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
    expect(errors.map((e) => e.entry.data)).toEqual([]);
  });
});
