import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { DEFAULT_MAX_BODY_BYTES } from '../../shared/config.ts';
import type { StageConfig } from '../stage-config.ts';
import { perStackCreation } from './physical-names.ts';

export interface ApiFirewallProps {
  config: StageConfig;
  /** The API stage the web ACL protects. */
  stage: Stage;
}

/** Rule names double as CloudWatch metric names (per stage, so stages in one account do not mix). */
export const FIREWALL_RULES = {
  bodyTooLarge: 'body-too-large',
  floodPerIp: 'flood-per-ip',
  common: 'aws-common',
  knownBadInputs: 'aws-known-bad-inputs',
} as const;

/**
 * AWS WAF in front of the API stage: bodies over the API's own limit, a per-IP flood guard above the per-merchant
 * rate limits, and AWS's common and known-bad-inputs rule sets. Its logs leave out the Authorization header (the
 * merchant's secret key); WAF never logs bodies, so no card data reaches them.
 *
 * @example
 * new ApiFirewall(this, 'Firewall', { config, stage: api.restApi.deploymentStage });
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly logs: LogGroup;

  constructor(scope: Construct, id: string, { config, stage }: ApiFirewallProps) {
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
          name: FIREWALL_RULES.floodPerIp,
          priority: 1,
          action: { block: {} },
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: config.wafRateLimitPerIp, evaluationWindowSec: 300 } },
          visibilityConfig: visibility(FIREWALL_RULES.floodPerIp),
        },
        // The common set blocks bodies over 8 KB; the API takes up to 64 KB, enforced by the size rule above.
        managed(2, FIREWALL_RULES.common, 'AWSManagedRulesCommonRuleSet', [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }]),
        managed(3, FIREWALL_RULES.knownBadInputs, 'AWSManagedRulesKnownBadInputsRuleSet'),
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
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
    });
    logging.node.addDependency(this.logs);
  }
}
