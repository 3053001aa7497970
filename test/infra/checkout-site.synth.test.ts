import { App, Stack } from 'aws-cdk-lib';
import { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { CheckoutSite } from '../../infra/constructs/checkout-site.ts';
import { EdgeMarker } from '../../infra/constructs/edge-marker.ts';
import { readStageConfig } from '../../infra/stage-config.ts';

/**
 * The construct in a stack of its own, next to an API it routes to and a function it feeds its URL to (what it shares
 * with the dashboard: static-site.synth.test.ts).
 */
function synthesize(context: Record<string, string> = {}) {
  const app = new App({ context: { stage: 'dev', ...context } });
  const stack = new Stack(app, 'CheckoutSiteTest');
  const config = readStageConfig(app.node);
  const site = new CheckoutSite(stack, 'CheckoutSite', { config, restApi: RestApi.fromRestApiId(stack, 'Api', 'abc123'), edgeMarker: new EdgeMarker(stack, 'EdgeMarker', { config }) });
  const fn = new LambdaFunction(stack, 'CreateSession', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = () => {}') });
  site.useAsCheckoutBaseUrl([fn]);
  return { template: Template.fromStack(stack), stack };
}

describe('CheckoutSite', () => {
  const { template } = synthesize();

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
