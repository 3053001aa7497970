import { App, type CfnElement } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gatewayResponses } from '../../infra/gateway-responses.ts';
import { DASHBOARD_SESSION_KEY_PATTERN } from '../../infra/constructs/data-store.ts';
import { LAYER_EXTERNALS, lockedVersion, powertoolsLayerModules } from '../../infra/constructs/powertools-layer.ts';
import { BUNDLING, ServiceFunction } from '../../infra/constructs/service-function.ts';
import { addPaymentsStack, type PaymentsStack } from '../../infra/stack.ts';
import { readServiceConfig } from '../../shared/config.ts';
import { errorBody } from '../../shared/http/response.ts';
import { routeIds, routes, writesTable, type RouteDefinition, type RouteId } from '../../shared/routes.ts';
import { keys } from '../../shared/store/keys.ts';
import { secondaryIndexes, tableDefinition } from '../../shared/store/table-definition.ts';
import { DASHBOARD_DOMAIN, withDashboardDomain } from './dashboard-domain.ts';
import { devStack } from './dev-stack.ts';
import { PRODUCTION_DOMAINS, stageContext, SYNTH_TIMEOUT_MS, TEST_ENVIRONMENT } from './stage-context.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
}

const READ_ACTIONS = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'];
const WRITE_ACTIONS = ['dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'];
const RATE_COUNTER_CONDITION = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } };

const actionsOf = (s: Statement) => [s.Action].flat();
const asList = (value: unknown) => [value].flat();
const byActions = (prefix: string) => (s: Statement) => actionsOf(s).some((a) => a.startsWith(prefix));

/**
 * The stack under test, its template, and lookups into it through its constructs: other constructs of the stack
 * (webhooks, expiry) add functions, keys and grants of their own, which these tests must not count.
 */
class SynthesizedStack {
  readonly template: Template;
  readonly resources: Record<string, Resource>;

  constructor(readonly stack: PaymentsStack) {
    this.template = Template.fromStack(stack);
    this.resources = this.template.toJSON().Resources as Record<string, Resource>;
  }

  ofType(type: string): [string, Resource][] {
    return Object.entries(this.resources).filter(([, r]) => r.Type === type);
  }

  only(type: string): [string, Resource] {
    const found = this.ofType(type);
    expect(found, type).toHaveLength(1);
    return found[0]!;
  }

  /** The logical id and template resource of a construct's CloudFormation resource. */
  of(construct: IConstruct): [string, Resource] {
    const id = this.stack.getLogicalId(construct.node.defaultChild as CfnElement);
    return [id, this.resources[id]!];
  }

  table = () => this.of(this.stack.dataStore.table);
  tableKey = () => this.of(this.stack.dataStore.key);

  functionOf(routeId: RouteId): [string, Resource] {
    const routeFunction = this.stack.api.routeFunctions[routeId];
    expect(routeFunction, routeId).toBeDefined();
    return this.of(routeFunction!.function);
  }

  /** Every statement of every policy attached to the route function's role, whichever construct added it. */
  statementsOf(routeId: RouteId): Statement[] {
    const [roleId] = this.of(this.stack.api.routeFunctions[routeId]!.role);
    return this.ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
  }

  /** Full path of an API Gateway resource, rebuilt from its chain of parents. */
  pathOf(resourceId: unknown): string {
    const ref = (resourceId as { Ref?: string }).Ref;
    if (!ref) return '';
    const resource = this.resources[ref]!;
    return `${this.pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
  }
}

/**
 * Without bundling: esbuild per route would take most of the file's time, and what the bundle does is checked by
 * function-bundle.test.ts (and by every `npm run synth`). Entries are still resolved, so a missing handler fails here.
 */
function synthesize(context: Record<string, unknown>): SynthesizedStack {
  return new SynthesizedStack(addPaymentsStack(new App({ context: stageContext(context) })));
}

describe('PaymentsStack', () => {
  let dev: SynthesizedStack;
  beforeAll(() => {
    dev = new SynthesizedStack(devStack());
  }, SYNTH_TIMEOUT_MS);

  it('names the stack after the stage', () => {
    expect(dev.stack.stackName).toBe('svc-payments-dev');
  });

  it('keeps the default domains without custom ones: no alias, no certificate, no API domain', () => {
    const [, distribution] = dev.of(dev.stack.checkoutSite.distribution);
    expect(distribution.Properties.DistributionConfig.Aliases).toBeUndefined();
    expect(dev.ofType('AWS::CertificateManager::Certificate')).toEqual([]);
    expect(dev.ofType('AWS::ApiGateway::DomainName')).toEqual([]);
  });

  describe('account and region', () => {
    it('deploys where the context says, and names no other region in the template', () => {
      expect({ account: dev.stack.account, region: dev.stack.region }).toEqual(TEST_ENVIRONMENT);
      expect(JSON.stringify(dev.template.toJSON())).not.toMatch(/us-east-1/);
    });

    it('refuses to synthesize without an account and a region, naming the context keys', () => {
      const saved = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
      delete process.env.CDK_DEFAULT_ACCOUNT;
      delete process.env.CDK_DEFAULT_REGION;
      try {
        const app = new App({ context: { stage: 'dev', 'aws:cdk:bundling-stacks': [] } });
        expect(() => addPaymentsStack(app)).toThrow(/-c account=.*-c region=/);
      } finally {
        if (saved.account !== undefined) process.env.CDK_DEFAULT_ACCOUNT = saved.account;
        if (saved.region !== undefined) process.env.CDK_DEFAULT_REGION = saved.region;
      }
    });
  });

  describe('table', () => {
    it('has the keys, index, TTL and stream of the shared table definition, billed on demand', () => {
      const [, table] = dev.table();
      const { partitionKey, sortKey, ttlAttribute } = tableDefinition;
      expect(table.Properties.KeySchema).toEqual([
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ]);
      expect(table.Properties.GlobalSecondaryIndexes).toEqual(
        secondaryIndexes.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.nonKeyAttributes] },
        })),
      );
      expect(table.Properties.AttributeDefinitions).toEqual(
        expect.arrayContaining([partitionKey, sortKey, ...secondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey])].map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
      );
      expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: ttlAttribute, Enabled: true });
      expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
      expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    });

    it('is encrypted with a customer-managed key that rotates', () => {
      const [keyId, key] = dev.tableKey();
      const [, table] = dev.table();
      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    });

    it('can be destroyed in a non-production stage', () => {
      const [, table] = dev.table();
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
      expect(table.DeletionPolicy).toBe('Delete');
      expect(dev.stack.terminationProtection).toBe(false);
    });
  });

  describe('route functions', () => {
    it('makes exactly one function per manifest route, each its own', () => {
      const apiFunctions = dev.stack.api.node.findAll().filter((c) => c instanceof CfnFunction);
      expect(apiFunctions).toHaveLength(routeIds.length);
      expect(new Set(routeIds.map((routeId) => dev.functionOf(routeId)[0])).size).toBe(routeIds.length);
      for (const routeId of routeIds) expect(dev.functionOf(routeId)[1].Properties.Description).toContain(`${routes[routeId].method} ${routes[routeId].path}`);
    });

    it('runs each on Node.js 22, arm64, with X-Ray tracing and the bundled handler', () => {
      for (const routeId of routeIds) {
        const [, fn] = dev.functionOf(routeId);
        expect(fn.Properties).toMatchObject({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          TracingConfig: { Mode: 'Active' },
          MemorySize: 256,
          Timeout: 10,
        });
      }
    });

    it('gives each the environment the handlers read at start-up', () => {
      const [tableId] = dev.table();
      for (const routeId of routeIds) {
        const [, fn] = dev.functionOf(routeId);
        const environment = fn.Properties.Environment.Variables as Record<string, unknown>;
        expect(environment).toMatchObject({ TABLE_NAME: { Ref: tableId }, POWERTOOLS_SERVICE_NAME: 'svc-payments' });
        // Stacks are source-mapped when logged, not by Node at every cold start (shared/observability/source-mapped-stack.ts).
        expect(environment.NODE_OPTIONS).toBeUndefined();
        // Without -c checkoutDomain the checkout site construct supplies its distribution's address.
        expect(environment.CHECKOUT_BASE_URL).toBeDefined();
        // Deploy-time references stand in as strings: what matters is that every variable the config needs is set.
        const asDeployed = Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, typeof v === 'string' ? v : 'resolved-at-deploy']));
        expect(() => readServiceConfig(asDeployed)).not.toThrow();
      }
    });

    it('gives each a role of its own, with no managed policies', () => {
      const roleIds = routeIds.map((routeId) => dev.functionOf(routeId)[1].Properties.Role['Fn::GetAtt'][0] as string);
      for (const routeId of routeIds) expect(roleIds).toContain(dev.of(dev.stack.api.routeFunctions[routeId]!.role)[0]);
      expect(new Set(roleIds).size).toBe(routeIds.length);
      for (const roleId of roleIds) expect(dev.resources[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    });

    it('gives each a log group of its own with a retention period', () => {
      const logGroupIds = routeIds.map((routeId) => dev.functionOf(routeId)[1].Properties.LoggingConfig.LogGroup.Ref as string);
      expect(new Set(logGroupIds).size).toBe(routeIds.length);
      for (const id of logGroupIds) expect(dev.resources[id]!.Properties.RetentionInDays).toBe(14);
    });
  });

  describe('Powertools layer', () => {
    it("attaches to every function of the service the stack's one Powertools layer, for Node.js 22 on arm64", () => {
      const functions = dev.stack.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);
      expect(functions.length).toBeGreaterThan(routeIds.length);
      // The template's other layers are CDK's AWS CLI layers of its site deployments (BucketDeployment).
      const powertools = Object.entries(dev.template.findResources('AWS::Lambda::LayerVersion')).filter(([id]) => id.startsWith('PowertoolsLayer'));
      expect(powertools).toHaveLength(1);
      const [layerId, layer] = powertools[0]!;
      expect(layer.Properties).toMatchObject({ CompatibleRuntimes: ['nodejs22.x'], CompatibleArchitectures: ['arm64'] });
      for (const fn of functions) expect(dev.of(fn.function)[1].Properties.Layers, fn.node.path).toEqual([{ Ref: layerId }]);
    });

    it("traces every function's invocations with Lambda's active tracing: the code adds only its calls outside AWS", () => {
      // No function loads the tracer at init (test/infra/function-bundle.test.ts); the segment comes from Lambda.
      const functions = dev.stack.node.findAll().filter((c): c is ServiceFunction => c instanceof ServiceFunction);
      for (const fn of functions) expect(dev.of(fn.function)[1].Properties.TracingConfig, fn.node.path).toEqual({ Mode: 'Active' });
    });

    it('leaves out of the bundles only the runtime SDK and the packages the layer holds, each at its locked version', () => {
      expect(BUNDLING.externalModules).toEqual(['@aws-sdk/*', ...LAYER_EXTERNALS]);
      const modules = powertoolsLayerModules();
      for (const name of LAYER_EXTERNALS) {
        const pkg = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { version: string; exports: Record<string, string> };
        expect(pkg.version, name).toBe(lockedVersion(name));
        for (const file of Object.values(pkg.exports)) expect(existsSync(join(modules, name, file)), `${name}: ${file}`).toBe(true);
      }
    });
  });

  describe('least privilege', () => {
    const readRoutes = routeIds.filter((id) => !writesTable(routes[id]));
    const writeRoutes = routeIds.filter((id) => writesTable(routes[id]));

    const tableArns = () => {
      const [tableId] = dev.table();
      const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
      const indexArns = secondaryIndexes.map((index) => ({ 'Fn::Join': ['', [tableArn, `/index/${index.name}`]] }));
      return { tableArn, indexArns };
    };

    it('has read and write routes in the manifest to check', () => {
      expect(readRoutes.length).toBeGreaterThan(0);
      expect(writeRoutes.length).toBeGreaterThan(0);
    });

    it('lets read routes get, batch get and query the table and its index, and nothing else unconditionally', () => {
      const { tableArn, indexArns } = tableArns();
      for (const routeId of readRoutes) {
        const dynamo = dev.statementsOf(routeId).filter(byActions('dynamodb:'));
        const unconditional = dynamo.filter((s) => !s.Condition);
        expect(unconditional.flatMap(actionsOf).sort(), routeId).toEqual(READ_ACTIONS);
        for (const s of unconditional) expect(asList(s.Resource)).toEqual([tableArn, ...indexArns]);
      }
    });

    it('lets read routes update only rate-limit counters and, for a dashboard user, their session\'s activity, and never put or delete', () => {
      const { tableArn } = tableArns();
      for (const routeId of readRoutes) {
        const dynamo = dev.statementsOf(routeId).filter(byActions('dynamodb:'));
        const actions = dynamo.flatMap(actionsOf);
        for (const forbidden of ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem']) {
          expect(actions, routeId).not.toContain(forbidden);
        }
        const updates = dynamo.filter((s) => actionsOf(s).includes('dynamodb:UpdateItem'));
        const route = routes[routeId] as RouteDefinition;
        const updatable = [...(route.rateClass ? ['RATE#*'] : []), ...(route.dashboard ? ['DASHBOARD_SESSION#*'] : [])];
        expect(updates.length, routeId).toBe(updatable.length > 0 ? 1 : 0);
        for (const s of updates) {
          expect(actionsOf(s)).toEqual(['dynamodb:UpdateItem']);
          expect(asList(s.Resource)).toEqual([tableArn]);
          const leadingKeys = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
          expect({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': asList(leadingKeys) } }, routeId).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': updatable } });
          expect(Object.keys(s.Condition!)).toEqual(['ForAllValues:StringLike']);
        }
      }
    });

    it('covers the keys the rate limiter writes with the LeadingKeys pattern', () => {
      const pattern = RATE_COUNTER_CONDITION['ForAllValues:StringLike']['dynamodb:LeadingKeys'][0]!;
      const regex = new RegExp(`^${pattern.replace('*', '.*')}$`);
      expect(keys.rateWindow('mer_1', 'reads', '2026-01-01T00:00').pk).toMatch(regex);
      expect(keys.session('cs_1').pk).not.toMatch(regex);
    });

    it('covers a dashboard session\'s key, and no other, with its LeadingKeys pattern', () => {
      const regex = new RegExp(`^${DASHBOARD_SESSION_KEY_PATTERN.replace('*', '.*')}$`);
      expect(keys.dashboardSession('a'.repeat(64)).pk).toMatch(regex);
      expect(keys.session('cs_1').pk).not.toMatch(regex);
      expect(keys.merchant('mer_1').pk).not.toMatch(regex);
    });

    it('lets write routes read and write items on the table and its index, without Scan or table management', () => {
      const { tableArn, indexArns } = tableArns();
      for (const routeId of writeRoutes) {
        const dynamo = dev.statementsOf(routeId).filter(byActions('dynamodb:'));
        expect(dynamo.flatMap(actionsOf).sort(), routeId).toEqual([...READ_ACTIONS, ...WRITE_ACTIONS].sort());
        for (const s of dynamo) {
          expect(s.Condition).toBeUndefined();
          expect(asList(s.Resource)).toEqual([tableArn, ...indexArns]);
        }
      }
    });

    it('grants no wildcard DynamoDB or KMS action to any function', () => {
      for (const routeId of routeIds) {
        const actions = dev.statementsOf(routeId).flatMap(actionsOf);
        expect(actions, routeId).not.toContain('*');
        expect(actions, routeId).not.toContain('dynamodb:*');
        expect(actions, routeId).not.toContain('kms:*');
        expect(actions.filter((a) => a.startsWith('dynamodb:')).every((a) => !a.includes('*')), routeId).toBe(true);
      }
    });

    it('lets functions use the table key only through DynamoDB, decrypting for reads and encrypting only where they write', () => {
      const [keyId] = dev.tableKey();
      const tableKeyArn = JSON.stringify({ 'Fn::GetAtt': [keyId, 'Arn'] });
      for (const routeId of routeIds) {
        const kms = dev.statementsOf(routeId).filter((s) => JSON.stringify(s.Resource).includes(tableKeyArn));
        expect(kms.length, routeId).toBeGreaterThan(0);
        for (const s of kms) {
          expect(asList(s.Resource)).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
          expect(actionsOf(s).every((a) => a.startsWith('kms:'))).toBe(true);
          expect(s.Condition).toEqual({ StringEquals: { 'kms:ViaService': dev.stack.resolve(`dynamodb.${dev.stack.region}.amazonaws.com`) } });
        }
        const route = routes[routeId] as RouteDefinition;
        const writesItems = writesTable(route) || route.rateClass !== null || route.dashboard !== undefined;
        expect(kms.flatMap(actionsOf).includes('kms:GenerateDataKey'), routeId).toBe(writesItems);
        expect(kms.flatMap(actionsOf), routeId).toContain('kms:Decrypt');
      }
    });
  });

  describe('API', () => {
    it('is one REST API, regional, accepting TLS 1.2 and newer only', () => {
      const [, api] = dev.only('AWS::ApiGateway::RestApi');
      expect(api.Properties.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
      expect(api.Properties.SecurityPolicy).toBe('SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09');
      expect(api.Properties.EndpointAccessMode).toBe('STRICT');
    });

    it('has one method per manifest route, at its method and path, integrated with its own function', () => {
      const methods = dev.ofType('AWS::ApiGateway::Method');
      expect(methods).toHaveLength(routeIds.length);
      for (const routeId of routeIds) {
        const route = routes[routeId];
        const matching = methods.filter(([, m]) => m.Properties.HttpMethod === route.method && dev.pathOf(m.Properties.ResourceId) === route.path);
        expect(matching, `${route.method} ${route.path}`).toHaveLength(1);
        const [, method] = matching[0]!;
        const [functionId] = dev.functionOf(routeId);
        expect(method.Properties.AuthorizationType).toBe('NONE');
        expect(method.Properties.Integration.Type).toBe('AWS_PROXY');
        expect(JSON.stringify(method.Properties.Integration.Uri)).toContain(JSON.stringify({ 'Fn::GetAtt': [functionId, 'Arn'] }));
      }
    });

    it('lets API Gateway invoke the route functions through one role that may invoke exactly those, and nothing through resource policies', () => {
      expect(dev.ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com')).toEqual([]);
      const [roleId, role] = dev.of(dev.stack.api.invokeRole);
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([expect.objectContaining({ Principal: { Service: 'apigateway.amazonaws.com' }, Action: 'sts:AssumeRole' })]);
      // CDK moves what exceeds an inline policy's size into an overflow managed policy of the same role.
      const statements = [...dev.ofType('AWS::IAM::Policy'), ...dev.ofType('AWS::IAM::ManagedPolicy')]
        .filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string; Resource: unknown }[]);
      expect(new Set(statements.map((st) => st.Action))).toEqual(new Set(['lambda:InvokeFunction']));
      const invokable = statements.flatMap((st) => (Array.isArray(st.Resource) ? st.Resource : [st.Resource]));
      expect(invokable).toHaveLength(routeIds.length);
      for (const routeId of routeIds) expect(invokable, routeId).toContainEqual({ 'Fn::GetAtt': [dev.functionOf(routeId)[0], 'Arn'] });
      const [, method] = dev.ofType('AWS::ApiGateway::Method').find(([, m]) => m.Properties.Integration?.Type === 'AWS_PROXY')!;
      expect(method.Properties.Integration.Credentials).toEqual({ 'Fn::GetAtt': [roleId, 'Arn'] });
    });

    it('deploys a stage named after the stage, traced, throttled, with JSON access logs', () => {
      const [, stage] = dev.only('AWS::ApiGateway::Stage');
      const [accessLogsId] = dev.of(dev.stack.api.accessLogs);
      expect(stage.Properties.StageName).toBe('dev');
      expect(stage.Properties.TracingEnabled).toBe(true);
      expect(stage.Properties.MethodSettings).toEqual([
        expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 }),
      ]);
      expect(stage.Properties.AccessLogSetting.DestinationArn).toEqual({ 'Fn::GetAtt': [accessLogsId, 'Arn'] });
      const format = JSON.parse(stage.Properties.AccessLogSetting.Format as string) as Record<string, string>;
      expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', resourcePath: '$context.resourcePath' });
    });

    it('answers API Gateway errors in the API error shape, with the listed status codes', () => {
      const responses = dev.ofType('AWS::ApiGateway::GatewayResponse');
      expect(responses).toHaveLength(gatewayResponses.length);
      for (const definition of gatewayResponses) {
        const type = definition.type.responseType;
        const found = responses.filter(([, r]) => r.Properties.ResponseType === type);
        expect(found, type).toHaveLength(1);
        const { Properties } = found[0]![1];
        const body = JSON.parse(withDashboardDomain(Properties.ResponseTemplates['application/json'])) as Record<string, unknown>;
        // docUrl: the code's entry in the docs deployed with the dashboard's site.
        expect(body, type).toEqual({ ...errorBody(definition.statusCode, definition.code, definition.message), requestId: 'req_$context.requestId', docUrl: `https://${DASHBOARD_DOMAIN}/docs/errors#error-${definition.code}` });
        expect(body.error, type).not.toBe('Error');
        const isDefault = type === 'DEFAULT_4XX' || type === 'DEFAULT_5XX';
        expect(Properties.StatusCode, type).toBe(isDefault ? undefined : String(definition.statusCode));
        expect(Properties.ResponseParameters, type).toMatchObject({
          'gatewayresponse.header.Cache-Control': "'no-store'",
          'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        });
      }
    });

    it('answers unknown routes with 404 route_not_found and throttling with 429 and Retry-After', () => {
      dev.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'MISSING_AUTHENTICATION_TOKEN', StatusCode: '404' });
      const [, missing] = dev.ofType('AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === 'MISSING_AUTHENTICATION_TOKEN')!;
      expect(JSON.parse(withDashboardDomain(missing.Properties.ResponseTemplates['application/json']))).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'route_not_found' });
      dev.template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: 'THROTTLED',
        StatusCode: '429',
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      });
      const [, throttled] = dev.ofType('AWS::ApiGateway::GatewayResponse').find(([, r]) => r.Properties.ResponseType === 'THROTTLED')!;
      expect(JSON.parse(withDashboardDomain(throttled.Properties.ResponseTemplates['application/json']))).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'Rate limit exceeded. Please retry later.',
        code: 'rate_limited',
        requestId: 'req_$context.requestId',
        docUrl: `https://${DASHBOARD_DOMAIN}/docs/errors#error-rate_limited`,
      });
    });

    it('outputs the API URL and the table name', () => {
      const outputs = dev.template.toJSON().Outputs as Record<string, { Value: unknown }>;
      const [tableId] = dev.table();
      // RestApi's own URL output is removed: one output per fact.
      expect(Object.keys(outputs).filter((name) => name.startsWith('ApiRestApi'))).toEqual([]);
      expect(outputs.TableName?.Value).toEqual({ Ref: tableId });
      const [restApiId] = dev.only('AWS::ApiGateway::RestApi');
      const [stageId] = dev.only('AWS::ApiGateway::Stage');
      const url = JSON.stringify(outputs.ApiUrl?.Value);
      for (const part of ['"https://"', `{"Ref":"${restApiId}"}`, '.execute-api.', `{"Ref":"${stageId}"}`]) expect(url).toContain(part);
    });
  });
});

describe('PaymentsStack in production', () => {
  let prod: SynthesizedStack;
  beforeAll(() => {
    prod = synthesize({ stage: 'prod', ...PRODUCTION_DOMAINS });
  }, SYNTH_TIMEOUT_MS);

  it('protects the table from deletion and retains it, its key and every log group', () => {
    expect(prod.stack.stackName).toBe('svc-payments-prod');
    const [, table] = prod.table();
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(prod.tableKey()[1]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    const logGroups = prod.ofType('AWS::Logs::LogGroup');
    expect(logGroups.length).toBeGreaterThan(routeIds.length);
    for (const [id, logGroup] of logGroups) {
      expect(logGroup.DeletionPolicy, id).toBe('Retain');
      expect(logGroup.Properties.RetentionInDays, id).toBe(365);
    }
  });

  it('turns on termination protection', () => {
    expect(prod.stack.terminationProtection).toBe(true);
  });

  it('builds checkout links on the checkout domain', () => {
    const [, fn] = prod.functionOf('createSession');
    expect(fn.Properties.Environment.Variables.CHECKOUT_BASE_URL).toBe('https://pay.example.com');
  });

  it('serves the checkout on its domain: CloudFront alias, the us-east-1 certificate, TLSv1.2_2021, alias records', () => {
    const [distributionId, distribution] = prod.of(prod.stack.checkoutSite.distribution);
    expect(distribution.Properties.DistributionConfig.Aliases).toEqual(['pay.example.com']);
    expect(distribution.Properties.DistributionConfig.ViewerCertificate).toEqual({
      AcmCertificateArn: PRODUCTION_DOMAINS.checkoutCertificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    const records = prod.ofType('AWS::Route53::RecordSet').filter(([, r]) => r.Properties.Name === 'pay.example.com.');
    expect(records.map(([, r]) => r.Properties.Type).sort()).toEqual(['A', 'AAAA']);
    for (const [, record] of records) {
      expect(record.Properties.HostedZoneId).toBe(PRODUCTION_DOMAINS.hostedZoneId);
      expect(record.Properties.AliasTarget.DNSName).toEqual({ 'Fn::GetAtt': [distributionId, 'DomainName'] });
    }
  });

  it('serves the API on its domain: a regional custom domain with a DNS-validated certificate, mapped to the stage', () => {
    const [domainId, domain] = prod.only('AWS::ApiGateway::DomainName');
    expect(domain.Properties).toMatchObject({ DomainName: 'api.pay.example.com', EndpointConfiguration: { Types: ['REGIONAL'] }, SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09' });
    const [certificateId, certificate] = prod.only('AWS::CertificateManager::Certificate');
    expect(domain.Properties.RegionalCertificateArn).toEqual({ Ref: certificateId });
    expect(certificate.Properties).toMatchObject({ DomainName: 'api.pay.example.com', ValidationMethod: 'DNS', DomainValidationOptions: [{ DomainName: 'api.pay.example.com', HostedZoneId: PRODUCTION_DOMAINS.hostedZoneId }] });
    const [, mapping] = prod.only('AWS::ApiGateway::BasePathMapping');
    expect(mapping.Properties).toEqual({ DomainName: { Ref: domainId }, RestApiId: { Ref: prod.of(prod.stack.api.restApi)[0] }, Stage: { Ref: prod.of(prod.stack.api.restApi.deploymentStage)[0] } });
    const [[, record]] = prod.ofType('AWS::Route53::RecordSet').filter(([, r]) => r.Properties.Name === 'api.pay.example.com.') as [[string, Resource]];
    expect(record.Properties).toMatchObject({ Type: 'A', AliasTarget: { DNSName: { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] } } });
    expect(prod.template.toJSON().Outputs.ApiUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', { Ref: domainId }, '/']] });
  });

  it('refuses to synthesize without its domains, naming the context keys', () => {
    expect(() => synthesize({ stage: 'prod' })).toThrow(/-c checkoutDomain=.*-c checkoutCertificateArn=.*-c hostedZoneId=/);
    expect(() => synthesize({ stage: 'prod', checkoutDomain: 'pay.example.com', checkoutCertificateArn: PRODUCTION_DOMAINS.checkoutCertificateArn })).toThrow(/-c apiDomain=/);
  });

  // A whole synthesis inside the test: it gets the set-up's time, not the default 30 s a loaded machine overruns.
  it('creates the checkout certificate in a hosted zone only in us-east-1, where CloudFront reads it', { timeout: SYNTH_TIMEOUT_MS }, () => {
    const { checkoutCertificateArn: _, ...zoneOnly } = PRODUCTION_DOMAINS;
    expect(() => synthesize({ stage: 'prod', ...zoneOnly })).toThrow(/us-east-1.*checkoutCertificateArn/);
    const inUsEast1 = synthesize({ stage: 'prod', ...zoneOnly, region: 'us-east-1' });
    const certificates = inUsEast1.ofType('AWS::CertificateManager::Certificate').map(([, c]) => c.Properties.DomainName).sort();
    expect(certificates).toEqual(['api.pay.example.com', 'pay.example.com']);
  });
});
