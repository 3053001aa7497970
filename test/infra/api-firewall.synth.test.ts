/**
 * Issue 21, finding 10: the WAF's per-client limits see the real client behind our CloudFront sites (not the edge
 * server's address), no one else may choose the address they are counted under, and sign-in has a limit of its own.
 */
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIREWALL_RULES, SIGN_IN_WAF_LIMIT } from '../../infra/constructs/api-firewall.ts';
import type { PaymentsStack } from '../../infra/stack.ts';
import { DEFAULT_WAF_RATE_LIMIT_PER_IP } from '../../infra/stage-config.ts';
import { CLIENT_IP_HEADER, EDGE_MARKER_HEADER } from '../../shared/http/client-address.ts';
import { devStack } from './dev-stack.ts';
import { SYNTH_TIMEOUT_MS } from './stage-context.ts';

type Json = Record<string, any>;
/** The edge marker (edge-marker.synth.test.ts checks its secret): its value by dynamic reference, the WAF's accepted values. */
const marker = (stack: PaymentsStack) => ({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: stack.getLogicalId(stack.edgeMarker.secret.node.defaultChild as CfnElement) }, ':SecretString:::}}']] });
const fromEdge = (stack: PaymentsStack) => ({
  RegexPatternSetReferenceStatement: {
    Arn: { 'Fn::GetAtt': [stack.getLogicalId(stack.edgeMarker.accepted), 'Arn'] },
    FieldToMatch: { SingleHeader: { Name: EDGE_MARKER_HEADER } },
    TextTransformations: [{ Priority: 0, Type: 'NONE' }],
  },
});
const SIGN_IN_PATH = {
  ByteMatchStatement: { FieldToMatch: { UriPath: {} }, PositionalConstraint: 'CONTAINS', SearchString: '/v1/dashboard/auth/', TextTransformations: [{ Priority: 0, Type: 'LOWERCASE' }] },
};
const BY_CLIENT_HEADER = { AggregateKeyType: 'FORWARDED_IP', ForwardedIPConfig: { HeaderName: CLIENT_IP_HEADER, FallbackBehavior: 'MATCH' } };

describe('API firewall: per-client limits behind CloudFront, and sign-in’s own', () => {
  let stack: PaymentsStack;
  let resources: Record<string, Json>;
  let rules: Json[];
  let FROM_EDGE: Json;
  let NOT_FROM_EDGE: Json;
  beforeAll(() => {
    stack = devStack();
    FROM_EDGE = fromEdge(stack);
    NOT_FROM_EDGE = { NotStatement: { Statement: FROM_EDGE } };
    resources = Template.fromStack(stack).toJSON().Resources as Record<string, Json>;
    const acl = Object.values(resources).find((r) => r.Type === 'AWS::WAFv2::WebACL')!;
    rules = acl.Properties.Rules as Json[];
  }, SYNTH_TIMEOUT_MS);

  const rule = (name: string) => rules.find((r) => r.Name === name)!;

  it('blocks X-Svc-Client-Ip on any request that did not come through our edge', () => {
    expect(rule(FIREWALL_RULES.forgedClientIp)).toMatchObject({
      Action: { Block: {} },
      Statement: {
        AndStatement: {
          Statements: [{ SizeConstraintStatement: { FieldToMatch: { SingleHeader: { Name: CLIENT_IP_HEADER } }, ComparisonOperator: 'GT', Size: 0 } }, NOT_FROM_EDGE],
        },
      },
    });
  });

  it('counts direct calls by source address and our sites’ calls by the viewer address the edge forwarded', () => {
    expect(rule(FIREWALL_RULES.floodPerIp).Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: DEFAULT_WAF_RATE_LIMIT_PER_IP,
      EvaluationWindowSec: 300,
      ScopeDownStatement: NOT_FROM_EDGE,
    });
    expect(rule(FIREWALL_RULES.floodPerClient).Statement.RateBasedStatement).toEqual({
      ...BY_CLIENT_HEADER,
      Limit: DEFAULT_WAF_RATE_LIMIT_PER_IP,
      EvaluationWindowSec: 300,
      ScopeDownStatement: FROM_EDGE,
    });
  });

  it('gives sign-in a per-client limit of its own, both ways', () => {
    expect(rule(FIREWALL_RULES.signInPerIp).Statement.RateBasedStatement).toEqual({
      AggregateKeyType: 'IP',
      Limit: SIGN_IN_WAF_LIMIT,
      EvaluationWindowSec: 300,
      ScopeDownStatement: { AndStatement: { Statements: [SIGN_IN_PATH, NOT_FROM_EDGE] } },
    });
    expect(rule(FIREWALL_RULES.signInPerClient).Statement.RateBasedStatement).toEqual({
      ...BY_CLIENT_HEADER,
      Limit: SIGN_IN_WAF_LIMIT,
      EvaluationWindowSec: 300,
      ScopeDownStatement: { AndStatement: { Statements: [SIGN_IN_PATH, FROM_EDGE] } },
    });
    for (const name of [FIREWALL_RULES.forgedClientIp, FIREWALL_RULES.floodPerIp, FIREWALL_RULES.floodPerClient, FIREWALL_RULES.signInPerIp, FIREWALL_RULES.signInPerClient]) {
      expect(rule(name).Action, name).toEqual({ Block: {} });
    }
  });

  it('has both sites send the marker to the API origin and set X-Svc-Client-Ip from the viewer on every API behaviour', () => {
    const distributions = Object.values(resources).filter((r) => r.Type === 'AWS::CloudFront::Distribution');
    expect(distributions).toHaveLength(2);
    for (const distribution of distributions) {
      const config = distribution.Properties.DistributionConfig;
      const apiOrigins = (config.Origins as Json[]).filter((o) => o.CustomOriginConfig);
      expect(apiOrigins).toHaveLength(1);
      expect(apiOrigins[0]!.OriginCustomHeaders).toEqual([{ HeaderName: EDGE_MARKER_HEADER, HeaderValue: marker(stack) }]);
      const apiBehaviors = (config.CacheBehaviors as Json[]).filter((b) => b.TargetOriginId === apiOrigins[0]!.Id);
      expect(apiBehaviors.length).toBeGreaterThan(0);
      for (const behavior of apiBehaviors) {
        const [association] = (behavior.FunctionAssociations as Json[]).filter((a) => a.EventType === 'viewer-request');
        const fn = resources[association!.FunctionARN['Fn::GetAtt'][0]]!;
        expect(fn.Type).toBe('AWS::CloudFront::Function');
        expect(fn.Properties.FunctionCode).toContain(`request.headers['${CLIENT_IP_HEADER}'] = { value: event.viewer.ip }`);
      }
    }
  });
});
