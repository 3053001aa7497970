import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { DEFAULT_MAX_BODY_BYTES } from '../../shared/config.ts';
import { CLIENT_IP_HEADER, EDGE_MARKER_HEADER } from '../../shared/http/client-address.ts';
import type { StageConfig } from '../stage-config.ts';
import type { EdgeMarker } from './edge-marker.ts';
import { perStackCreation } from './physical-names.ts';

export interface ApiFirewallProps {
  config: StageConfig;
  /** The API stage the web ACL protects. */
  stage: Stage;
  /** The secret our CloudFront sites send in X-Svc-Edge: the values the WAF accepts as our edge's. */
  edgeMarker: EdgeMarker;
}

/** Rule names double as CloudWatch metric names (per stage, so stages in one account do not mix). */
export const FIREWALL_RULES = {
  bodyTooLarge: 'body-too-large',
  forgedClientIp: 'forged-client-ip',
  floodPerIp: 'flood-per-ip',
  floodPerClient: 'flood-per-client',
  signInPerIp: 'sign-in-per-ip',
  signInPerClient: 'sign-in-per-client',
  common: 'aws-common',
  knownBadInputs: 'aws-known-bad-inputs',
} as const;

/** Sign-in's own WAF limit per client, over 5 minutes (the API counts 20 a minute per client too: shared/dashboard/sign-in-rate.ts). */
export const SIGN_IN_WAF_LIMIT = 100;
/** Sign-in, its MFA step and the new-password step: the paths whose attempts the sign-in rules count. */
const SIGN_IN_PATHS = '/v1/dashboard/auth/';

/**
 * The CloudFront Function (viewer request) of the sites' API behaviours: X-Svc-Client-Ip set to the viewer's address,
 * whatever the viewer sent in it (CloudFront appends to X-Forwarded-For instead, whose first address the client chooses).
 */
export const clientIpFunctionCode = (): string =>
  `async function handler(event) {\n  var request = event.request;\n  request.headers['${CLIENT_IP_HEADER}'] = { value: event.viewer.ip };\n  return request;\n}\n`;

/**
 * AWS WAF in front of the API stage: bodies over the API's own limit, a per-client flood guard above the per-merchant
 * rate limits, sign-in's own per-client limit, and AWS's common and known-bad-inputs rule sets. The per-client rules
 * see the real client: the source address of direct calls (merchants' servers), and for calls through our CloudFront
 * sites (checkout, dashboard), whose source is an edge server shared by many viewers, the viewer's address the edge
 * put in X-Svc-Client-Ip (a forwarded-IP rule; WAF reads the header's first address). A request that carries that
 * header without our edge's marker (a secret, edge-marker.ts) is blocked, so no one else can choose the address they
 * are counted under. Its logs leave out the Authorization header (the merchant's secret key) and the marker; WAF never
 * logs bodies, so no card data reaches them.
 *
 * @example
 * new ApiFirewall(this, 'Firewall', { config, stage: api.restApi.deploymentStage, edgeMarker });
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly logs: LogGroup;

  constructor(scope: Construct, id: string, { config, stage, edgeMarker }: ApiFirewallProps) {
    super(scope, id);
    const metricPrefix = `svc-payments-${config.stage}`;
    const visibility = (name: string) => ({ metricName: `${metricPrefix}-${name}`, cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true });
    const managed = (priority: number, name: string, ruleSet: string, overrides: CfnWebACL.RuleActionOverrideProperty[] = []): CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: ruleSet, ruleActionOverrides: overrides.length ? overrides : undefined } },
      visibilityConfig: visibility(name),
    });

    const none = [{ priority: 0, type: 'NONE' }];
    // The marker's current value, and around a rotation the one before or after (edge-marker.ts).
    const fromEdge: CfnWebACL.StatementProperty = {
      regexPatternSetReferenceStatement: { arn: edgeMarker.accepted.attrArn, fieldToMatch: { singleHeader: { Name: EDGE_MARKER_HEADER } }, textTransformations: none },
    };
    const notFromEdge: CfnWebACL.StatementProperty = { notStatement: { statement: fromEdge } };
    const hasClientIp: CfnWebACL.StatementProperty = {
      sizeConstraintStatement: { fieldToMatch: { singleHeader: { Name: CLIENT_IP_HEADER } }, comparisonOperator: 'GT', size: 0, textTransformations: none },
    };
    const signInPath: CfnWebACL.StatementProperty = {
      // The path API Gateway sees starts with the stage's name: matched anywhere in it.
      byteMatchStatement: { fieldToMatch: { uriPath: {} }, positionalConstraint: 'CONTAINS', searchString: SIGN_IN_PATHS, textTransformations: [{ priority: 0, type: 'LOWERCASE' }] },
    };
    /** A rate rule per client: by source address for direct calls, by the edge's X-Svc-Client-Ip for our sites' calls. */
    const perClient = (priority: number, name: string, limit: number, client: 'source' | 'edge', only?: CfnWebACL.StatementProperty): CfnWebACL.RuleProperty => {
      const scope = client === 'source' ? notFromEdge : fromEdge;
      return {
        name,
        priority,
        action: { block: {} },
        statement: {
          rateBasedStatement: {
            limit,
            evaluationWindowSec: 300,
            ...(client === 'source'
              ? { aggregateKeyType: 'IP' }
              : { aggregateKeyType: 'FORWARDED_IP', forwardedIpConfig: { headerName: CLIENT_IP_HEADER, fallbackBehavior: 'MATCH' } }),
            scopeDownStatement: only ? { andStatement: { statements: [only, scope] } } : scope,
          },
        },
        visibilityConfig: visibility(name),
      };
    };

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: metricPrefix,
      description: `svc-payments ${config.stage}: the /v1 API`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('web-acl'),
      // Inspect bodies up to the API's limit (the default is 16 KB), so the size rule sees every byte it may allow.
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: 'KB_64' } } },
      rules: [
        {
          name: FIREWALL_RULES.bodyTooLarge,
          priority: 0,
          action: { block: {} },
          statement: {
            sizeConstraintStatement: {
              // A body beyond the inspection limit is oversize: it matches, so it is blocked too.
              fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
              comparisonOperator: 'GT',
              size: DEFAULT_MAX_BODY_BYTES,
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
          visibilityConfig: visibility(FIREWALL_RULES.bodyTooLarge),
        },
        {
          name: FIREWALL_RULES.forgedClientIp,
          priority: 1,
          action: { block: {} },
          statement: { andStatement: { statements: [hasClientIp, notFromEdge] } },
          visibilityConfig: visibility(FIREWALL_RULES.forgedClientIp),
        },
        perClient(2, FIREWALL_RULES.floodPerIp, config.wafRateLimitPerIp, 'source'),
        perClient(3, FIREWALL_RULES.floodPerClient, config.wafRateLimitPerIp, 'edge'),
        perClient(4, FIREWALL_RULES.signInPerIp, SIGN_IN_WAF_LIMIT, 'source', signInPath),
        perClient(5, FIREWALL_RULES.signInPerClient, SIGN_IN_WAF_LIMIT, 'edge', signInPath),
        // The common set blocks bodies over 8 KB; the API takes up to 64 KB, enforced by the size rule above.
        managed(6, FIREWALL_RULES.common, 'AWSManagedRulesCommonRuleSet', [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }]),
        managed(7, FIREWALL_RULES.knownBadInputs, 'AWSManagedRulesKnownBadInputsRuleSet'),
      ],
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: stage.stageArn, webAclArn: this.webAcl.attrArn });

    // WAF writes only to log groups named aws-waf-logs-*, and wants the ARN without the trailing :*. The group is
    // retained in production, so its name is new per stack creation: a retried first deploy does not meet the old one.
    this.logs = new LogGroup(this, 'Logs', {
      logGroupName: `aws-waf-logs-${metricPrefix}-${perStackCreation(this)}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    const logging = new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: this.logs.logGroupName, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      // The merchant's secret key, and the edge marker: whoever reads it could choose their client address.
      redactedFields: [{ singleHeader: { Name: 'authorization' } }, { singleHeader: { Name: EDGE_MARKER_HEADER } }],
    });
    logging.node.addDependency(this.logs);
  }
}
