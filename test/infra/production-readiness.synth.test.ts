import { App, Aspects, CfnResource, CloudFormationValidatePlugin, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { addPaymentsStack, type PaymentsStack } from '../../infra/stack.ts';
import { DEFAULT_WAF_RATE_LIMIT_PER_IP, gatewayUrlParameterName } from '../../infra/stage-config.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../../shared/config.ts';
import { GATEWAY_IDS } from '../../shared/domain/merchant.ts';
import type { FunctionNeed } from '../../shared/function-needs.ts';
import { GATEWAY_URL_VARIABLES, LOOPBACK_GATEWAYS_VARIABLE } from '../../shared/gateways/gateway-registry.ts';
import { MERCANTIL_SANDBOX_URL } from '../../shared/connectors/mercantil/profile.ts';
import { routeIds, routes, writesTable } from '../../shared/routes.ts';
import { workers } from '../../shared/workers.ts';
import { PRODUCTION_DOMAINS, stageContext, SYNTH_TIMEOUT_MS, TEST_ENVIRONMENT } from './stage-context.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

const ALARM_EMAIL = 'oncall@example.com';

/**
 * CDK's built-in CloudFormation validation as `cdk synth` runs it with cdk.json's context: a violation is an error
 * that fails the synthesis (CDK only warns without the flag). The other test files synthesize without it
 * (CDK_VALIDATION=false in vitest.config.ts): it is the same check of the same template, seconds each time.
 */
const STRICT_VALIDATION = { '@aws-cdk/core:validateAgainstDefaultRules': true };
const validated = (app: App): App => {
  Validations.of(app).addPlugins(new CloudFormationValidatePlugin());
  return app;
};

/** One stage, synthesized once with cdk-nag's AwsSolutions pack as bin/app.ts applies it, and CDK's validation. */
class CheckedStage {
  readonly template: Template;
  readonly resources: Record<string, Resource>;
  readonly json: string;
  /** cdk-nag's findings (errors and warnings) not suppressed, as `path: rule`. */
  readonly nagFindings: string[];

  constructor(readonly stack: PaymentsStack) {
    // One synthesis for both the template and the findings (Annotations.fromStack would synthesize again).
    const artifact = (stack.node.root as App).synth().getStackArtifact(stack.artifactId);
    this.template = Template.fromJSON(artifact.template);
    this.nagFindings = artifact.messages
      .filter((m) => String(m.entry.data).startsWith('AwsSolutions-'))
      .map((m) => `${m.id}: ${String(m.entry.data).split(':')[0]}`);
    this.resources = this.template.toJSON().Resources as Record<string, Resource>;
    this.json = JSON.stringify(this.template.toJSON());
  }

  ofType = (type: string) => Object.entries(this.resources).filter(([, r]) => r.Type === type);
  idOf = (construct: IConstruct) => this.stack.getLogicalId(construct.node.defaultChild as CfnElement);
  functions = () => this.stack.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);

  statementsOf(fn: ServiceFunction): Statement[] {
    const roleRef = JSON.stringify({ Ref: this.idOf(fn.role) });
    return this.ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === roleRef))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
  }

  /** Actions the function's role is granted on a resource (matched by its template reference). */
  actionsOn(fn: ServiceFunction, resource: IConstruct): string[] {
    const ref = JSON.stringify({ 'Fn::GetAtt': [this.idOf(resource), 'Arn'] });
    return this.statementsOf(fn)
      .filter((s) => JSON.stringify(s.Resource).includes(ref))
      .flatMap((s) => [s.Action].flat())
      .sort();
  }

  environmentOf(fn: ServiceFunction): Record<string, unknown> {
    return this.resources[this.idOf(fn.function)]!.Properties.Environment.Variables as Record<string, unknown>;
  }
}

function synthesize(context: Record<string, string>): CheckedStage {
  // Without bundling: wiring and rules only (function-bundle.test.ts checks a bundle).
  const app = validated(new App({ context: { ...stageContext(context), ...STRICT_VALIDATION } }));
  const stack = addPaymentsStack(app);
  Aspects.of(app).add(new AwsSolutionsChecks());
  return new CheckedStage(stack);
}

/** Both manifests by id: a service function's construct id is its route or worker id. */
const MANIFEST = { ...routes, ...workers } as Record<string, { needs?: readonly FunctionNeed[] }>;
const declaredNeeds = (fn: ServiceFunction): readonly FunctionNeed[] => {
  const entry = MANIFEST[fn.node.id];
  expect(entry, fn.node.id).toBeDefined();
  return entry!.needs ?? [];
};

describe('production readiness', () => {
  let dev: CheckedStage;
  let prod: CheckedStage;
  beforeAll(() => {
    dev = synthesize({ stage: 'dev' });
    prod = synthesize({ stage: 'prod', ...PRODUCTION_DOMAINS, alarmEmail: ALARM_EMAIL, bankDirectUrl: 'https://api.bank-direct.example/test' });
  }, SYNTH_TIMEOUT_MS);

  describe("CDK's CloudFormation validation", () => {
    it('is in force with errors as errors, as cdk.json sets it', async () => {
      const cdkJson = JSON.parse(await readFile(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
      expect(cdkJson.context).toMatchObject(STRICT_VALIDATION);
      // Both stages above synthesized under it; a template it refuses fails the synthesis.
      const app = validated(new App({ context: STRICT_VALIDATION }));
      new CfnResource(new Stack(app, 'Refused'), 'Queue', { type: 'AWS::SQS::Queue', properties: { MessageRetentionPeriod: 'a week' } });
      expect(() => app.synth()).toThrow(/MessageRetentionPeriod: 'a week' is not of type 'integer' \(CloudFormation Validate\)/);
    });
  });

  describe('cdk-nag AwsSolutions', () => {
    it.each(['dev', 'prod'])('finds nothing unsuppressed in the %s stage', (stage) => {
      expect((stage === 'dev' ? dev : prod).nagFindings).toEqual([]);
    });

    it('suppresses CFR4 (no minimum TLS version) only where the checkout has no domain of its own, never in production', () => {
      const cfr4 = (stage: CheckedStage) => JSON.stringify(stage.resources[stage.idOf(stage.stack.checkoutSite.distribution)]).includes('AwsSolutions-CFR4');
      expect(cfr4(dev)).toBe(true);
      expect(cfr4(prod)).toBe(false);
    });

    it('justifies every suppression in words', () => {
      const suppressions = Object.values(dev.resources).flatMap((r) => ((r as { Metadata?: { cdk_nag?: { rules_to_suppress: { reason: string }[] } } }).Metadata?.cdk_nag?.rules_to_suppress ?? []));
      expect(suppressions.length).toBeGreaterThan(0);
      for (const { reason } of suppressions) expect(reason.split(' ').length, reason).toBeGreaterThan(5);
    });
  });

  describe('keys', () => {
    it('are customer-managed: the table and secrets keys rotate, the fingerprint key is HMAC_256 for MACs only', () => {
      const { keys, dataStore } = dev.stack;
      expect(dev.resources[dev.idOf(dataStore.key)]!.Properties.EnableKeyRotation).toBe(true);
      expect(dev.resources[dev.idOf(keys.secrets)]!.Properties).toMatchObject({ EnableKeyRotation: true });
      expect(dev.resources[dev.idOf(keys.fingerprints)]!.Properties).toMatchObject({ KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' });
    });

    it('are retained in production with the data they protect', () => {
      const { keys } = prod.stack;
      for (const key of [keys.secrets, keys.fingerprints]) expect(prod.resources[prod.idOf(key)]!.DeletionPolicy).toBe('Retain');
    });

    it('let exactly the functions that declare secrets seal and open SecretBox ciphertexts, naming the key for them', () => {
      const users = dev.functions().filter((fn) => dev.actionsOn(fn, dev.stack.keys.secrets).length > 0).map((fn) => fn.node.id).sort();
      const declaring = dev.functions().filter((fn) => declaredNeeds(fn).includes('secrets')).map((fn) => fn.node.id).sort();
      expect(users).toEqual(declaring);
      // The card vault, the bank-credential users and the webhook secret holders; no read-only route among them.
      expect(users).toEqual(expect.arrayContaining(['createCheckoutCharge', 'confirmCheckoutOtp', 'createWebhookEndpoint', 'updateWebhookEndpoint', 'sendWebhooks', 'expireSessions']));
      for (const id of users) expect(id in routes ? writesTable(routes[id as keyof typeof routes]) : true, id).toBe(true);
      for (const fn of dev.functions()) {
        const uses = users.includes(fn.node.id);
        // KMS Encrypt to seal, Decrypt to open (shared/crypto/kms-secret-box.ts): no data keys, no re-encryption.
        if (uses) expect([...new Set(dev.actionsOn(fn, dev.stack.keys.secrets))], fn.node.id).toEqual(['kms:Decrypt', 'kms:Encrypt']);
        expect(dev.environmentOf(fn).SECRETS_KMS_KEY_ARN, fn.node.id).toEqual(uses ? { 'Fn::GetAtt': [dev.idOf(dev.stack.keys.secrets), 'Arn'] } : undefined);
      }
    });

    it('let only the card vault open card numbers: the secrets key by encryption context, everyone else never', () => {
      const onSecrets = (fn: ServiceFunction) =>
        dev.statementsOf(fn).filter((s) => JSON.stringify(s.Resource).includes(JSON.stringify({ 'Fn::GetAtt': [dev.idOf(dev.stack.keys.secrets), 'Arn'] })));
      const cardPurpose = { 'kms:EncryptionContext:purpose': 'card_number' };
      const vault = dev.functions().filter((fn) => declaredNeeds(fn).includes('cardNumbers')).map((fn) => fn.node.id).sort();
      // confirmCheckoutOtp: a bank that takes the card again with the code (Mercantil debit) needs the sealed number.
      expect(vault).toEqual(['confirmCheckoutOtp', 'createCharge', 'createCheckoutCharge']);
      for (const fn of dev.functions()) {
        for (const statement of onSecrets(fn)) {
          expect([statement.Action].flat().sort(), fn.node.id).toEqual(['kms:Decrypt', 'kms:Encrypt']);
          const condition = statement.Condition;
          // Each grant on the secrets key is either card numbers only (the vault) or everything but card numbers.
          if (vault.includes(fn.node.id) && JSON.stringify(condition?.StringEquals) === JSON.stringify(cardPurpose)) continue;
          expect(condition, fn.node.id).toEqual({ StringNotEquals: cardPurpose });
        }
        const opensCards = onSecrets(fn).some((s) => JSON.stringify(s.Condition) === JSON.stringify({ StringEquals: cardPurpose }));
        expect(opensCards, fn.node.id).toBe(vault.includes(fn.node.id));
      }
    });

    it('let only the routes that carry card or pago móvil secrets compute fingerprints, and never verify MACs or read the key', () => {
      const users = dev.functions().filter((fn) => dev.actionsOn(fn, dev.stack.keys.fingerprints).length > 0);
      // confirmCheckoutOtp carries a CVV on Mercantil debit cards: its idempotency fingerprint is the keyed HMAC too.
      // The pago móvil debit carries the buyer's payment key (its idempotency fingerprint, as a CVV's), and the key
      // request counts a phone's keys by the phone's keyed fingerprint, never the phone itself.
      expect(users.map((fn) => fn.node.id).sort()).toEqual(['confirmCheckoutOtp', 'createCheckoutCharge', 'createPagoMovilCharge', 'requestPagoMovilKey']);
      for (const user of users) {
        expect(dev.actionsOn(user, dev.stack.keys.fingerprints)).toEqual(['kms:GenerateMac']);
        expect(dev.environmentOf(user).FINGERPRINT_KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [dev.idOf(dev.stack.keys.fingerprints), 'Arn'] });
      }
    });

    it('let every function, stream consumers included, use the table key only through DynamoDB', () => {
      const viaDynamoDb = { StringEquals: { 'kms:ViaService': `dynamodb.${TEST_ENVIRONMENT.region}.amazonaws.com` } };
      const streamConsumers = dev.functions().filter((fn) => (workers as Record<string, { trigger: { kind: string } }>)[fn.node.id]?.trigger.kind === 'stream');
      expect(streamConsumers.map((fn) => fn.node.id).sort()).toEqual(['dispatchWebhooks', 'planSessionExpiry']);
      const tableKey = JSON.stringify({ 'Fn::GetAtt': [dev.idOf(dev.stack.dataStore.key), 'Arn'] });
      for (const fn of dev.functions()) {
        const onKey = dev.statementsOf(fn).filter((s) => JSON.stringify(s.Resource).includes(tableKey));
        for (const statement of onKey) expect(statement.Condition, fn.node.id).toEqual(viaDynamoDb);
      }
      for (const fn of streamConsumers) expect(dev.actionsOn(fn, dev.stack.dataStore.key), fn.node.id).toContain('kms:Decrypt');
    });

    it('name in the wildcard suppression every action a function holds on *', () => {
      for (const fn of dev.functions()) {
        const onAnything = dev.statementsOf(fn).filter((s) => s.Resource === '*').flatMap((s) => [s.Action].flat());
        const suppressions = (dev.resources[dev.idOf(fn.role)] as { Metadata?: { cdk_nag?: { rules_to_suppress: { id: string; reason: string; applies_to?: unknown[] }[] } } }).Metadata?.cdk_nag?.rules_to_suppress ?? [];
        const reason = suppressions.find((r) => r.id === 'AwsSolutions-IAM5' && r.applies_to?.includes('Resource::*'))?.reason ?? '';
        for (const action of onAnything) expect(reason, `${fn.node.id}: ${action}`).toContain(action.split(':')[1]!);
      }
    });

    it('give read-only routes no key but the table key through DynamoDB, and no queue', () => {
      for (const id of routeIds.filter((r) => !writesTable(routes[r]))) {
        const fn = dev.stack.api.routeFunctions[id]!;
        const actions = dev.statementsOf(fn).flatMap((s) => [s.Action].flat());
        expect(dev.actionsOn(fn, dev.stack.keys.secrets), id).toEqual([]);
        expect(dev.actionsOn(fn, dev.stack.keys.fingerprints), id).toEqual([]);
        expect(actions.filter((a) => a.startsWith('sqs:') || a.startsWith('scheduler:')), id).toEqual([]);
      }
    });
  });

  describe('gateway configuration', () => {
    it('gives bank URLs only to the functions that call banks: from SSM by default, from context when given', () => {
      const parameters = dev.template.toJSON().Parameters as Record<string, { Type: string; Default: string }>;
      // Plain http to a network is for the AWS harness alone (its simulators); a stack never allows it.
      for (const stage of [dev, prod]) {
        for (const fn of stage.functions()) expect(Object.keys(stage.environmentOf(fn)), fn.node.id).not.toContain(LOOPBACK_GATEWAYS_VARIABLE);
      }
      for (const fn of dev.functions()) {
        const environment = dev.environmentOf(fn);
        for (const id of GATEWAY_IDS) {
          const value = environment[GATEWAY_URL_VARIABLES[id]] as { Ref: string } | undefined;
          if (!declaredNeeds(fn).includes('gateways')) {
            expect(value, `${fn.node.id} ${id}`).toBeUndefined();
            continue;
          }
          expect(parameters[value!.Ref]).toEqual({ Type: 'AWS::SSM::Parameter::Value<String>', Default: gatewayUrlParameterName('dev', id) });
        }
      }
      const charge = prod.environmentOf(prod.stack.api.routeFunctions.createCheckoutCharge!);
      expect(charge.GATEWAY_BANK_DIRECT_URL).toBe('https://api.bank-direct.example/test');
      expect(charge.GATEWAY_CARD_PROCESSOR_URL).toEqual({ Ref: expect.stringContaining('SsmParameterValue') });
      // Mercantil's test environment lives at another address: the bank's published sandbox unless context says otherwise.
      expect(charge.GATEWAY_MERCANTIL_TEST_URL).toBe(MERCANTIL_SANDBOX_URL);
      expect(prod.environmentOf(prod.stack.api.routeFunctions.listSessions!).GATEWAY_MERCANTIL_TEST_URL).toBeUndefined();
    });
  });

  describe('edge', () => {
    it('puts a regional web ACL with the size rule, the per-IP flood guard and the AWS managed rule sets on the API stage', () => {
      const [[aclId, acl]] = dev.ofType('AWS::WAFv2::WebACL') as [[string, Resource]];
      expect(acl.Properties.Scope).toBe('REGIONAL');
      const rules = acl.Properties.Rules as { Name: string; Statement: Record<string, any>; Action?: object }[];
      const statements = rules.map((r) => r.Statement);
      expect(statements).toContainEqual({
        SizeConstraintStatement: { FieldToMatch: { Body: { OversizeHandling: 'MATCH' } }, ComparisonOperator: 'GT', Size: DEFAULT_MAX_BODY_BYTES, TextTransformations: [{ Priority: 0, Type: 'NONE' }] },
      });
      // Scoped to direct calls; our sites' calls are counted by the viewer's address (test/infra/api-firewall.synth.test.ts).
      expect(statements).toContainEqual({ RateBasedStatement: expect.objectContaining({ AggregateKeyType: 'IP', Limit: DEFAULT_WAF_RATE_LIMIT_PER_IP, EvaluationWindowSec: 300 }) });
      const managed = statements.flatMap((s) => (s.ManagedRuleGroupStatement ? [s.ManagedRuleGroupStatement.Name] : []));
      expect(managed.sort()).toEqual(['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet']);
      for (const rule of rules.filter((r) => !r.Statement.ManagedRuleGroupStatement)) expect(rule.Action, rule.Name).toEqual({ Block: {} });
      expect(acl.Properties.AssociationConfig).toEqual({ RequestBody: { API_GATEWAY: { DefaultSizeInspectionLimit: 'KB_64' } } });

      const [[, association]] = dev.ofType('AWS::WAFv2::WebACLAssociation') as [[string, Resource]];
      expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      expect(JSON.stringify(association.Properties.ResourceArn)).toContain(`"Ref":"${dev.idOf(dev.stack.api.restApi.deploymentStage)}"`);
    });

    it('logs WAF decisions to an aws-waf-logs- group without the Authorization header or the edge marker', () => {
      dev.template.hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
        RedactedFields: [{ SingleHeader: { Name: 'authorization' } }, { SingleHeader: { Name: 'x-svc-edge' } }],
      });
      // The one log group WAF writes to: named aws-waf-logs-* (WAF's rule), and the configuration names that group.
      const logs = dev.resources[dev.idOf(dev.stack.firewall.logs)]!;
      expect(JSON.stringify(logs.Properties.LogGroupName)).toMatch(/^\{"Fn::Join":\["",\["aws-waf-logs-svc-payments-dev-",/);
      expect(logs.Properties.RetentionInDays).toBe(14);
      const [[, logging]] = dev.ofType('AWS::WAFv2::LoggingConfiguration') as [[string, Resource]];
      expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).toContain(`:log-group:",{"Ref":"${dev.idOf(dev.stack.firewall.logs)}"}`);
    });

    it('names no resource it keeps on rollback or deletion with a fixed name, so a failed first deploy can be retried', () => {
      const kept = Object.entries(prod.resources).filter(([, r]) => r.DeletionPolicy !== undefined && r.DeletionPolicy !== 'Delete');
      expect(kept.map(([, r]) => r.Type)).toEqual(expect.arrayContaining(['AWS::DynamoDB::Table', 'AWS::Scheduler::ScheduleGroup', 'AWS::Logs::LogGroup']));
      // A name is new per creation when it refers to another resource of the stack (made anew with it) or to the stack's id.
      const perCreation = (value: unknown) => {
        const json = JSON.stringify(value);
        return json.includes('"AWS::StackId"') || Object.keys(prod.resources).some((id) => json.includes(`{"Ref":"${id}"}`) || json.includes(`"Fn::GetAtt":["${id}"`));
      };
      const fixed = kept.flatMap(([id, r]) =>
        Object.entries(r.Properties ?? {})
          .filter(([property, value]) => /Name$/.test(property) && !perCreation(value))
          .map(([property, value]) => `${id}.${property} = ${JSON.stringify(value)}`),
      );
      expect(fixed).toEqual([]);
    });

    it('logs API Gateway errors with retention and never data traces (bodies and keys)', () => {
      const [[, stage]] = dev.ofType('AWS::ApiGateway::Stage') as [[string, Resource]];
      expect(stage.Properties.MethodSettings).toEqual([expect.objectContaining({ LoggingLevel: 'ERROR', DataTraceEnabled: false })]);
      const executionLogs = dev.resources[dev.idOf(dev.stack.api.executionLogs)]!;
      expect(JSON.stringify(executionLogs.Properties.LogGroupName)).toContain('API-Gateway-Execution-Logs_');
      expect(executionLogs.Properties.RetentionInDays).toBe(14);
    });
  });

  describe('logs', () => {
    it('keeps every log group for a limited time, and every service function logs to its own', () => {
      for (const stage of [dev, prod]) {
        const retention = stage === dev ? 14 : 365;
        for (const [id, logGroup] of stage.ofType('AWS::Logs::LogGroup')) expect(logGroup.Properties.RetentionInDays, id).toBe(retention);
        for (const fn of stage.functions()) {
          const logGroupId = stage.resources[stage.idOf(fn.function)]!.Properties.LoggingConfig.LogGroup.Ref as string;
          expect(stage.resources[logGroupId]!.Type).toBe('AWS::Logs::LogGroup');
        }
      }
    });
  });

  describe('on-call', () => {
    const alarmsBy = (stage: CheckedStage) => stage.ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);

    it('pages one SNS topic (TLS only) from every alarm, on alarm and on recovery', () => {
      const topicId = dev.idOf(dev.stack.monitoring.topic);
      const alarms = alarmsBy(dev);
      expect(alarms.length).toBe(9);
      for (const alarm of alarms) {
        expect(alarm.AlarmActions, alarm.AlarmDescription).toEqual([{ Ref: topicId }]);
        expect(alarm.OKActions, alarm.AlarmDescription).toEqual([{ Ref: topicId }]);
      }
      dev.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });
    });

    it('alarms on the API 5xx rate, p99 latency, dead letters, expiry lateness and the bank error rate', () => {
      const alarms = alarmsBy(dev);
      const expressions = alarms.flatMap((a) => (a.Metrics as { Expression?: string }[] | undefined)?.flatMap((m) => (m.Expression ? [m.Expression] : [])) ?? []);
      expect(expressions).toContainEqual(expect.stringContaining('100 * errors / requests'));
      expect(expressions).toContainEqual(expect.stringMatching(/FILL\(failed, 0\) \+ FILL\(unknown, 0\) \+ FILL\(unavailable, 0\)/));
      expect(alarms).toContainEqual(expect.objectContaining({ MetricName: 'Latency', ExtendedStatistic: 'p99', Namespace: 'AWS/ApiGateway' }));
      expect(alarms).toContainEqual(expect.objectContaining({ MetricName: 'ExpiryLatenessSeconds', Namespace: 'svc-payments/dev', Statistic: 'Maximum' }));
      // The two work queues, the per-session schedules and the daily card-verification run.
      expect(alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible')).toHaveLength(4);
      // Records parked by any stream or queue worker.
      const parked = alarms.find((a) => JSON.stringify(a.Metrics ?? []).includes('"ParkedRecords"'));
      expect(parked).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      const parkedWorkers = (parked!.Metrics as { MetricStat?: { Metric: { Dimensions: { Name: string; Value: string }[] } } }[]).flatMap((m) => m.MetricStat?.Metric.Dimensions.filter((d) => d.Name === 'worker').map((d) => d.Value) ?? []);
      expect(parkedWorkers.sort()).toEqual(['dispatchWebhooks', 'expireSessions', 'planSessionExpiry', 'sendWebhooks']);
    });

    it('subscribes the on-call address from context, and none without one', () => {
      prod.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: ALARM_EMAIL });
      dev.template.resourceCountIs('AWS::SNS::Subscription', 0);
    });

    it('has a dashboard per stage, and the metrics namespace of the stage on every function', () => {
      dev.template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'svc-payments-dev' });
      for (const fn of dev.functions()) expect(dev.environmentOf(fn).POWERTOOLS_METRICS_NAMESPACE).toBe('svc-payments/dev');
    });
  });

  describe('stages', () => {
    it('name their resources apart, so two stages deploy side by side in one account', () => {
      // The names that must be unique per account and region (operation, index and metric names need not be).
      const PHYSICAL_NAMES = ['Name', 'LogGroupName', 'DashboardName', 'TopicName', 'QueueName', 'TableName', 'FunctionName', 'RoleName', 'BucketName'];
      const namesOf = (stage: CheckedStage) =>
        Object.values(stage.resources).flatMap((r) =>
          Object.entries(r.Properties ?? {})
            .filter(([key, value]) => PHYSICAL_NAMES.includes(key) && typeof value === 'string')
            .map(([, value]) => value as string),
        );
      const devNames = namesOf(dev);
      expect(devNames.length).toBeGreaterThan(3);
      for (const name of devNames) expect(namesOf(prod), name).not.toContain(name);
    });
  });

  describe('template', () => {
    it('holds nothing that looks like a key, a password or a secret value', () => {
      for (const stage of [dev, prod]) {
        expect(stage.json).not.toMatch(/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]/);
        expect(stage.json).not.toMatch(/whsec_[A-Za-z0-9]/);
        expect(stage.json).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
        expect(stage.json).not.toMatch(/\b(AKIA|ASIA)[0-9A-Z]{16}\b/);
        // Not ARNs, nor time units (Cognito's TokenValidityUnits: "AccessToken": "minutes").
        expect(stage.json).not.toMatch(/"[^"]*(password|passwd|secret|token|credential|apikey|api_key)[^"]*"\s*:\s*"(?!arn:)(?!(seconds|minutes|hours|days)")[^"{]{6,}"/i);
        for (const fn of stage.functions()) {
          for (const [name, value] of Object.entries(stage.environmentOf(fn))) {
            // A variable about a secret may only point at where it is kept (a key ARN reference), never hold it.
            if (/SECRET|PASSWORD|TOKEN|CREDENTIAL|PRIVATE/i.test(name)) expect(typeof value, `${fn.node.id} ${name}`).not.toBe('string');
          }
        }
      }
    });
  });
});
