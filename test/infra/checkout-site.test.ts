import { App, Stack } from 'aws-cdk-lib';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_CSP } from '../../checkout/page-headers.ts';
import { CheckoutSite } from '../../infra/constructs/checkout-site.ts';
import { readStageConfig } from '../../infra/stage-config.ts';

/** The construct in a stack of its own, next to an API it routes to and a function it feeds its URL to. */
function synthesize(context: Record<string, string> = {}) {
  const app = new App({ context: { stage: 'dev', ...context } });
  const stack = new Stack(app, 'CheckoutSiteTest');
  const config = readStageConfig(app.node);
  const site = new CheckoutSite(stack, 'CheckoutSite', { config, restApi: RestApi.fromRestApiId(stack, 'Api', 'abc123') });
  const fn = new LambdaFunction(stack, 'CreateSession', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = () => {}') });
  site.useAsCheckoutBaseUrl([fn]);
  return { template: Template.fromStack(stack), stack };
}

describe('CheckoutSite', () => {
  const { template } = synthesize();

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

  it('serves the page over HTTPS only, with the strict CSP and security headers', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https', ResponseHeadersPolicyId: Match.anyValue() }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: CHECKOUT_CSP, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Preload: true, Override: true },
        },
      }),
    });
    const [fn] = Object.values(template.findResources('AWS::CloudFront::Function'));
    expect(fn?.Properties.FunctionCode).toContain("request.uri = '/checkout/index.html'");
  });

  it('routes /v1/checkout/* to the API stage, uncached, HTTPS only', () => {
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const config = distribution!.Properties.DistributionConfig;
    const behaviour = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/v1/checkout/*');
    expect(behaviour).toMatchObject({ ViewerProtocolPolicy: 'https-only', AllowedMethods: expect.arrayContaining(['POST', 'GET']) });
    expect(behaviour.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // Managed-CachingDisabled
    const origin = config.Origins.find((o: { Id: string }) => o.Id === behaviour.TargetOriginId);
    expect(JSON.stringify(origin.DomainName)).toContain('abc123.execute-api.');
    expect(origin).toMatchObject({ OriginPath: '/dev', CustomOriginConfig: { OriginProtocolPolicy: 'https-only' } });
  });

  it('caches merchant logos at the edge, before the uncached /v1/checkout/* behaviour, forwarding Accept for binary answers', () => {
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const behaviours: { PathPattern: string; CachePolicyId: string; OriginRequestPolicyId: unknown; TargetOriginId: string }[] = distribution!.Properties.DistributionConfig.CacheBehaviors;
    const logos = behaviours.findIndex((b) => b.PathPattern === '/v1/checkout/logos/*');
    expect(logos).toBeGreaterThanOrEqual(0);
    expect(logos).toBeLessThan(behaviours.findIndex((b) => b.PathPattern === '/v1/checkout/*'));
    expect(behaviours[logos]!.CachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6'); // Managed-CachingOptimized
    expect(behaviours[logos]!.TargetOriginId).toBe(behaviours.find((b) => b.PathPattern === '/v1/checkout/*')!.TargetOriginId);
    template.hasResourceProperties('AWS::CloudFront::OriginRequestPolicy', {
      OriginRequestPolicyConfig: Match.objectLike({ HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['Accept'] } }),
    });
  });

  it('deploys the built page under checkout/: assets immutable first, then the page, revalidated and invalidated', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((d) => d.Properties);
    expect(deployments).toHaveLength(2);
    for (const d of deployments) expect(d).toMatchObject({ DestinationBucketKeyPrefix: 'checkout/', Prune: false });
    const page = deployments.find((d) => d.DistributionPaths);
    expect(page.DistributionPaths).toContain('/checkout');
    expect(page.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(deployments.find((d) => !d.DistributionPaths).SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
  });

  it("feeds the distribution's URL to the functions as CHECKOUT_BASE_URL", () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { CHECKOUT_BASE_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.stringLikeRegexp('Distribution'), 'DomainName'] }]] } } },
    });
  });

  it('feeds the checkout domain instead when the stage names one', () => {
    const custom = synthesize({ checkoutDomain: 'pagar.example.com', checkoutCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0b6a7a4e-1111-4222-8333-944455556666' }).template;
    custom.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: { CHECKOUT_BASE_URL: 'https://pagar.example.com' } } });
  });
});
