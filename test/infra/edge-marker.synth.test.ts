/**
 * Issue 33, finding 5: the edge marker that vouches for X-Svc-Client-Ip was the stack's UUID, readable by anyone with
 * DescribeStacks or the template, logged by WAF and never rotated. It is now a random value in Secrets Manager: the
 * template holds only a reference to it, WAF logs leave it out, and a rotation function replaces it on both ends.
 * The rotation itself runs against moto in edge-marker-rotation.test.ts.
 */
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_MARKER_ROTATION } from '../../infra/constructs/edge-marker.ts';
import type { PaymentsStack } from '../../infra/stack.ts';
import { EDGE_MARKER_HEADER } from '../../shared/http/client-address.ts';
import { devStack } from './dev-stack.ts';
import { SYNTH_TIMEOUT_MS } from './stage-context.ts';

type Json = Record<string, any>;

describe('the edge marker: a rotated secret, never in the template or the WAF logs', () => {
  let stack: PaymentsStack;
  let resources: Record<string, Json>;
  let rotation: Record<string, Json>;
  let secretId: string;
  let patternSetId: string;
  /** The value of a parameter of the rotation's nested stack, as the service's stack passes it. */
  let passed: (parameter: { Ref: string }) => unknown;
  const ofType = (from: Record<string, Json>, type: string) => Object.values(from).filter((r) => r.Type === type);

  beforeAll(() => {
    stack = devStack();
    resources = Template.fromStack(stack).toJSON().Resources as Record<string, Json>;
    const nested = stack.edgeMarker.node.findChild('Rotation') as Parameters<typeof Template.fromStack>[0];
    rotation = Template.fromStack(nested).toJSON().Resources as Record<string, Json>;
    secretId = stack.getLogicalId(stack.edgeMarker.secret.node.defaultChild as CfnElement);
    patternSetId = stack.getLogicalId(stack.edgeMarker.accepted);
    const [nestedStack] = ofType(resources, 'AWS::CloudFormation::Stack');
    passed = ({ Ref }) => nestedStack!.Properties.Parameters[Ref];
  }, SYNTH_TIMEOUT_MS);

  const reference = () => ({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] });
  const distributionIds = () => ofType(resources, 'AWS::CloudFront::Distribution').map((d) => Object.entries(resources).find(([, r]) => r === d)![0]);

  it('is a random value Secrets Manager generates, which the template only refers to', () => {
    expect(resources[secretId]).toMatchObject({
      Type: 'AWS::SecretsManager::Secret',
      Properties: { GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true, IncludeSpace: false } },
    });
    expect(resources[secretId]!.Properties.SecretString).toBeUndefined();
  });

  it("has both sites send it by dynamic reference, not the stack's UUID", () => {
    const distributions = ofType(resources, 'AWS::CloudFront::Distribution');
    expect(distributions).toHaveLength(2);
    for (const distribution of distributions) {
      const headers = (distribution.Properties.DistributionConfig.Origins as Json[]).flatMap((o) => o.OriginCustomHeaders ?? []);
      expect(headers).toEqual([{ HeaderName: EDGE_MARKER_HEADER, HeaderValue: reference() }]);
      expect(JSON.stringify(distribution)).not.toContain('AWS::StackId');
    }
  });

  it('has the WAF compare the header with the values of its pattern set, which starts as the same reference', () => {
    expect(resources[patternSetId]).toMatchObject({ Type: 'AWS::WAFv2::RegexPatternSet', Properties: { Scope: 'REGIONAL', RegularExpressionList: [reference()] } });
    const [acl] = ofType(resources, 'AWS::WAFv2::WebACL');
    const json = JSON.stringify(acl);
    expect(json).not.toContain('AWS::StackId');
    expect(json).not.toContain('ByteMatchStatement":{"FieldToMatch":{"SingleHeader":{"Name":"x-svc-edge"');
    // Five rules look for our edge: the forged-address block and the four per-client limits.
    expect(json.split(JSON.stringify({ RegexPatternSetReferenceStatement: { Arn: { 'Fn::GetAtt': [patternSetId, 'Arn'] }, FieldToMatch: { SingleHeader: { Name: EDGE_MARKER_HEADER } }, TextTransformations: [{ Priority: 0, Type: 'NONE' }] } })).length - 1).toBe(5);
  });

  it('is redacted from the WAF logs with the Authorization header', () => {
    const [logging] = ofType(resources, 'AWS::WAFv2::LoggingConfiguration');
    expect(logging!.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }, { SingleHeader: { Name: EDGE_MARKER_HEADER } }]);
  });

  it('is rotated on a schedule by a function that may change only the pattern set, the two distributions and this secret', () => {
    const [schedule] = ofType(rotation, 'AWS::SecretsManager::RotationSchedule');
    expect(passed(schedule!.Properties.SecretId)).toEqual({ Ref: secretId });
    expect(schedule!.Properties).toMatchObject({ RotationRules: { ScheduleExpression: `rate(${EDGE_MARKER_ROTATION.toDays()} days)` }, RotateImmediatelyOnUpdate: false });

    const functionId = schedule!.Properties.RotationLambdaARN['Fn::GetAtt'][0];
    const fn = rotation[functionId]!;
    expect(fn.Properties).toMatchObject({ Runtime: 'python3.13', Handler: 'rotate.handler', Environment: { Variables: { EDGE_MARKER_HEADER, PATTERN_SET_NAME: resources[patternSetId]!.Properties.Name } } });
    const env = fn.Properties.Environment.Variables;
    expect(passed(env.PATTERN_SET_ID)).toEqual({ 'Fn::GetAtt': [patternSetId, 'Id'] });
    expect(env.DISTRIBUTION_IDS['Fn::Join'][1].map(passed)).toEqual(distributionIds().map((id) => ({ Ref: id })));

    const [permission] = ofType(rotation, 'AWS::Lambda::Permission');
    expect(permission!.Properties).toMatchObject({ Principal: 'secretsmanager.amazonaws.com', FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] } });
    expect(passed(permission!.Properties.SourceArn)).toEqual({ Ref: secretId });

    const statements = ofType(rotation, 'AWS::IAM::Policy').flatMap((p) => p.Properties.PolicyDocument.Statement as Json[]);
    const grantedOn = (action: string) => statements.filter((s) => [s.Action].flat().includes(action)).map((s) => s.Resource);
    expect(grantedOn('wafv2:UpdateRegexPatternSet').map(passed)).toEqual([{ 'Fn::GetAtt': [patternSetId, 'Arn'] }]);
    expect(grantedOn('secretsmanager:PutSecretValue').map(passed)).toEqual([{ Ref: secretId }]);
    const distributionsGranted = grantedOn('cloudfront:UpdateDistribution').map((r) => passed(r['Fn::Join'][1][3]));
    expect(distributionsGranted).toEqual(distributionIds().map((id) => ({ Ref: id })));
  });
});
