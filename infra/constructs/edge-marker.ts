import { Duration, Fn, NestedStack } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnRotationSchedule, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnRegexPatternSet } from 'aws-cdk-lib/aws-wafv2';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { EDGE_MARKER_HEADER } from '../../shared/http/client-address.ts';
import type { StageConfig } from '../stage-config.ts';

/** How often the marker is replaced; a value stays accepted for up to two of these (docs/runbook.md, "The edge marker"). */
export const EDGE_MARKER_ROTATION = Duration.days(30);
/** Letters and digits (a header value, and a WAF regular expression that matches only itself). */
const MARKER_LENGTH = 64;
const ROTATION_CODE = fileURLToPath(new URL('../edge-marker-rotation/', import.meta.url));

/**
 * The edge marker: a random value in Secrets Manager that our CloudFront sites send the API in X-Svc-Edge, so the
 * WAF trusts the client address they add (api-firewall.ts). Neither the template nor a log holds it: the sites'
 * origins and the WAF's pattern set get it at deploy by a dynamic reference (`{{resolve:secretsmanager:...}}`), and
 * the rotation function (infra/edge-marker-rotation/rotate.py) replaces it on both ends every EDGE_MARKER_ROTATION:
 * the WAF accepts the current and the new value before any edge sends the new one.
 *
 * @example
 * const marker = new EdgeMarker(this, 'EdgeMarker', { config });
 * new CheckoutSite(this, 'CheckoutSite', { config, restApi, edgeMarker: marker });
 * marker.rotateOn([checkoutSite.distribution]);
 */
export class EdgeMarker extends Construct {
  readonly secret: Secret;
  /** The values the WAF accepts in X-Svc-Edge: the current one, and during and after a rotation the one before. */
  readonly accepted: CfnRegexPatternSet;

  constructor(scope: Construct, id: string, private readonly props: { config: StageConfig }) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: `svc-payments ${props.config.stage}: the value our CloudFront sites send the API in ${EDGE_MARKER_HEADER}`,
      generateSecretString: { passwordLength: MARKER_LENGTH, excludePunctuation: true, includeSpace: false },
      removalPolicy: props.config.removalPolicy,
    });
    this.accepted = new CfnRegexPatternSet(this, 'Accepted', {
      name: `svc-payments-${props.config.stage}-edge-marker`,
      description: `svc-payments ${props.config.stage}: the ${EDGE_MARKER_HEADER} values the API WAF accepts`,
      scope: 'REGIONAL',
      // Resolved by CloudFormation at deploy; the rotation function keeps it up to date after that.
      regularExpressionList: [this.value],
    });
  }

  /** The value for a CloudFront origin's custom header: a dynamic reference, resolved by CloudFormation at deploy. */
  get value(): string {
    return this.secret.secretValue.unsafeUnwrap();
  }

  /**
   * The rotation on a schedule: a new value, accepted by the WAF, then sent by each of these distributions. Its
   * function, role, logs and schedule are a nested stack: the service's stack is close to CloudFormation's 500
   * resources, and the nested stack counts as one.
   */
  rotateOn(distributions: IDistribution[]): void {
    const { config } = this.props;
    const stack = new NestedStack(this, 'Rotation', { description: `svc-payments ${config.stage}: the edge marker's rotation` });
    const logGroup = new LogGroup(stack, 'Logs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    const role = new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: 'Rotates the edge marker' });
    logGroup.grantWrite(role);
    const rotation = new LambdaFunction(stack, 'Function', {
      description: `svc-payments ${config.stage}: rotates the edge marker on the WAF and the CloudFront sites`,
      runtime: Runtime.PYTHON_3_13,
      architecture: Architecture.ARM_64,
      // rotate.py alone: a local run of its tests may leave Python's bytecode cache beside it.
      code: Code.fromAsset(ROTATION_CODE, { exclude: ['__pycache__'] }),
      handler: 'rotate.handler',
      // setSecret waits for the WAF change to propagate (90 s) before the distributions change.
      timeout: Duration.minutes(5),
      role,
      logGroup,
      environment: {
        EDGE_MARKER_HEADER,
        DISTRIBUTION_IDS: Fn.join(',', distributions.map((d) => d.distributionId)),
        PATTERN_SET_ID: this.accepted.attrId,
        PATTERN_SET_NAME: this.accepted.name!,
      },
    });
    // What Secrets Manager's own rotation grant gives (RotationSchedule), without its resource policy on the secret,
    // which would be one more resource in the service's stack.
    role.addToPolicy(
      new PolicyStatement({
        actions: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'],
        resources: [this.secret.secretArn],
      }),
    );
    role.addToPolicy(new PolicyStatement({ actions: ['secretsmanager:GetRandomPassword'], resources: ['*'] }));
    role.addToPolicy(new PolicyStatement({ actions: ['wafv2:GetRegexPatternSet', 'wafv2:UpdateRegexPatternSet'], resources: [this.accepted.attrArn] }));
    for (const distribution of distributions) distribution.grant(role, 'cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution');
    rotation.addPermission('SecretsManager', {
      principal: new ServicePrincipal('secretsmanager.amazonaws.com'),
      sourceAccount: stack.account,
      sourceArn: this.secret.secretArn,
    });
    const schedule = new CfnRotationSchedule(stack, 'Schedule', {
      secretId: this.secret.secretArn,
      rotationLambdaArn: rotation.functionArn,
      rotationRules: { scheduleExpression: `rate(${EDGE_MARKER_ROTATION.toDays()} days)` },
      // Not at deploy: CloudFormation has just given both ends the current value; the first rotation comes on schedule.
      rotateImmediatelyOnUpdate: false,
    });
    // Secrets Manager checks at creation that it may invoke the function.
    schedule.node.addDependency(rotation.node.findChild('SecretsManager'));

    NagSuppressions.addResourceSuppressions(
      role,
      [{ id: 'AwsSolutions-IAM5', reason: 'secretsmanager:GetRandomPassword has no resource to name; the log group grant names its streams.' }],
      true,
    );
    NagSuppressions.addResourceSuppressions(rotation, [{ id: 'AwsSolutions-L1', reason: "Python 3.13 for boto3 in Lambda's runtime; it runs once a month." }]);
    NagSuppressions.addResourceSuppressions(this.secret, [{ id: 'AwsSolutions-SMG4', reason: "Rotated every 30 days by the RotationSchedule of the nested stack EdgeMarker/Rotation, where cdk-nag's rule does not look." }]);
  }
}
