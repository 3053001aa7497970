import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  AwsIntegration,
  CfnRestApi,
  DomainName,
  EndpointAccessMode,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { OPERATION_SUMMARIES } from '../../shared/openapi/operation-summaries.ts';
import { writesTable, type RouteDefinition, type RouteId } from '../../shared/routes.ts';
import { gatewayResponseHeaders, gatewayResponses, gatewayResponseTemplate, setsStatusCode } from '../gateway-responses.ts';
import type { StageConfig } from '../stage-config.ts';
import { DASHBOARD_SESSION_KEY_PATTERN, RATE_COUNTER_KEY_PATTERN, type DataStore } from './data-store.ts';
import { ServiceFunction, serviceEnvironment } from './service-function.ts';

/** One JSON object per request. No headers and no bodies: the Authorization header carries the secret key. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    extendedRequestId: AccessLogField.contextExtendedRequestId(),
    requestTime: AccessLogField.contextRequestTime(),
    ip: AccessLogField.contextIdentitySourceIp(),
    userAgent: AccessLogField.contextIdentityUserAgent(),
    httpMethod: AccessLogField.contextHttpMethod(),
    resourcePath: AccessLogField.contextResourcePath(),
    path: AccessLogField.contextPath(),
    protocol: AccessLogField.contextProtocol(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    responseLatency: AccessLogField.contextResponseLatency(),
    integrationStatus: AccessLogField.contextIntegrationStatus(),
    integrationLatency: AccessLogField.contextIntegrationLatency(),
    errorType: AccessLogField.contextErrorResponseType(),
    errorMessage: AccessLogField.contextErrorMessage(),
    xrayTraceId: AccessLogField.contextXrayTraceId(),
  }),
);

/**
 * Writes the OpenAPI document beside the bundle of GET /v1/openapi.json (shared/openapi/served-document.ts), with
 * the Node.js and tsx of the synth: built from the schemas at bundle time, so that function bundles no handler.
 */
export const writeOpenApiDocument = (outputDir: string): string[] => [`"${process.execPath}" --import tsx shared/openapi/write-openapi-json.ts "${outputDir}"`];

/** Steps after esbuild, by route id. */
const AFTER_BUNDLING: Record<string, (outputDir: string) => string[]> = { getOpenApiDocument: writeOpenApiDocument };

export interface ApiProps {
  config: StageConfig;
  dataStore: DataStore;
  /** The route manifest: one function and one method per entry. */
  routes: Record<string, RouteDefinition>;
}

/**
 * The public /v1 API: a REST API (AWS WAF attaches to REST APIs) with Lambda proxy integrations and one function
 * per manifest route (a route added to shared/routes.ts gets its function and method here), each granted only the
 * table access its route's `access` and `rateClass` call for.
 */
export class Api extends Construct {
  readonly restApi: RestApi;
  readonly accessLogs: LogGroup;
  readonly executionLogs: LogGroup;
  /** By route id: other constructs add their grants and environment to a route's function here (and later alarms). */
  readonly routeFunctions: Record<string, ServiceFunction> = {};
  /** What API Gateway assumes to invoke the route functions: lambda:InvokeFunction on exactly those. */
  readonly invokeRole: Role;
  /** The stage's apiDomain, mapped at its root to the deployment stage. */
  readonly domainName?: DomainName;

  constructor(scope: Construct, id: string, { config, dataStore, routes }: ApiProps) {
    super(scope, id);

    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: config.logRetention, removalPolicy: config.removalPolicy });
    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: `svc-payments-${config.stage}`,
      description: `svc-payments ${config.stage}: the /v1 API`,
      // Server-to-server callers gain nothing from an edge hop; a regional WAF web ACL associates with the stage.
      endpointTypes: [EndpointType.REGIONAL],
      // Merchant logos (GET /v1/checkout/logos/...) leave their Lambda base64-encoded; a request accepting an image
      // gets the bytes. JSON stays text: no request or answer of ours has another binary type.
      binaryMediaTypes: ['image/*'],
      failOnWarnings: true,
      // Access logging needs API Gateway's account-level CloudWatch role; retained because it is one per account
      // and region, shared with every other stage there.
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: config.stage,
        accessLogDestination: new LogGroupLogDestination(this.accessLogs),
        accessLogFormat: ACCESS_LOG_FORMAT,
        tracingEnabled: true,
        metricsEnabled: true,
        // Errors of API Gateway itself; never data traces, which would log request bodies (card data) and headers (keys).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: config.apiThrottle.rateLimit,
        throttlingBurstLimit: config.apiThrottle.burstLimit,
      },
    });
    // Created here, with retention, before API Gateway would create it on its own without any.
    this.executionLogs = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.restApi.restApiId}/${config.stage}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    this.restApi.deploymentStage.node.addDependency(this.executionLogs);
    // The stack outputs the URL under a stable name (ApiUrl) instead of RestApi's generated one.
    this.restApi.node.tryRemoveChild('Endpoint');
    // The default execute-api endpoint would accept TLS 1.0; this policy takes TLS 1.2 and 1.3 with forward secrecy.
    // The L2 construct has no property for it yet.
    const cfnRestApi = this.restApi.node.defaultChild as CfnRestApi;
    cfnRestApi.securityPolicy = SecurityPolicy.TLS13_1_2_PFS_PQ_2025_09;
    cfnRestApi.endpointAccessMode = EndpointAccessMode.STRICT;

    for (const definition of gatewayResponses) {
      this.restApi.addGatewayResponse(definition.type.responseType, {
        type: definition.type,
        ...(setsStatusCode(definition) ? { statusCode: String(definition.statusCode) } : {}),
        responseHeaders: gatewayResponseHeaders(definition),
        templates: { 'application/json': gatewayResponseTemplate(definition, config.docsBaseUrl) },
      });
    }

    // API Gateway invokes every route function through this one role, which may invoke those functions and nothing
    // else: one grant for all, where a resource policy per function (LambdaIntegration's) cost one resource each and
    // brought the stack past CloudFormation's 500 (docs/architecture.md, "Resources per route").
    this.invokeRole = new Role(this, 'InvokeRole', { assumedBy: new ServicePrincipal('apigateway.amazonaws.com'), description: `svc-payments ${config.stage}: API Gateway invokes the route functions` });
    for (const [routeId, route] of Object.entries(routes)) {
      const routeFunction = new ServiceFunction(this, routeId, {
        config,
        entry: route.entry,
        description: `${route.method} ${route.path} (${routeId}): ${OPERATION_SUMMARIES[routeId as RouteId]}`,
        environment: serviceEnvironment(config, dataStore),
        needs: route.needs,
        afterBundling: AFTER_BUNDLING[routeId],
      });
      if (writesTable(route)) {
        dataStore.grantItemReadWrite(routeFunction.role);
      } else {
        dataStore.grantItemRead(routeFunction.role);
        // What a reading route still writes: its rate counters, and the activity of a signed-in user's session.
        const updated = [...(route.rateClass ? [RATE_COUNTER_KEY_PATTERN] : []), ...(route.dashboard ? [DASHBOARD_SESSION_KEY_PATTERN] : [])];
        if (updated.length > 0) dataStore.grantItemUpdates(routeFunction.role, updated);
      }
      this.invokeRole.addToPrincipalPolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [routeFunction.function.functionArn] }));
      this.restApi.root.resourceForPath(route.path).addMethod(
        route.method,
        // A Lambda proxy integration: the unqualified function, through the invoke role; no resource policy on the function.
        new AwsIntegration({ proxy: true, service: 'lambda', path: `2015-03-31/functions/${routeFunction.function.functionArn}/invocations`, options: { credentialsRole: this.invokeRole } }),
        // Authentication is the handler's (the manifest's `auth`: API keys, or the session for checkout routes).
        { authorizationType: AuthorizationType.NONE, operationName: routeId },
      );
      this.routeFunctions[routeId] = routeFunction;
    }
    if (config.apiDomain) this.domainName = this.addCustomDomain(config);

    NagSuppressions.addResourceSuppressions(this.restApi, [
      { id: 'AwsSolutions-APIG2', reason: 'Requests are validated in the handlers by the zod schemas, so AWS and the sandbox answer alike in the API error shape.' },
      { id: 'AwsSolutions-APIG4', reason: 'Callers are authorised in the handlers: API keys (sk_/rk_) for merchants, the session reference for checkout.' },
      { id: 'AwsSolutions-COG4', reason: "Callers are authenticated in the handlers: API keys for merchants, the session for buyers, and dashboard users by their Cognito ID token (aws-jwt-verify) together with the role the route needs, which an API Gateway authorizer cannot decide; the handlers answer in the API's one error shape." },
      { id: 'AwsSolutions-IAM4', reason: "API Gateway's account-level logging role; AWS's managed push-to-CloudWatch policy is the documented one.", appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs'] },
    ], true);
  }

  /** Base URL of the API, ending in `/`: https://{apiDomain}/, else the deployed stage's execute-api URL. */
  get url(): string {
    return this.domainName ? `https://${this.domainName.domainName}/` : this.restApi.url;
  }

  /**
   * A regional custom domain with the stage's certificate (or one validated in its hosted zone), the same strict TLS
   * policy as the API itself, its root mapped to the deployment stage (https://{apiDomain}/v1/...), and an alias
   * record when the stage gives the zone.
   */
  private addCustomDomain({ apiDomain, hostedZone }: StageConfig): DomainName {
    const { name, certificateArn } = apiDomain!;
    const zone = hostedZone && HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: hostedZone.id, zoneName: hostedZone.name });
    const certificate = certificateArn
      ? Certificate.fromCertificateArn(this, 'Certificate', certificateArn)
      : new Certificate(this, 'Certificate', { domainName: name, validation: CertificateValidation.fromDns(zone) });
    const domain = new DomainName(this, 'CustomDomain', {
      domainName: name,
      certificate,
      endpointType: EndpointType.REGIONAL,
      securityPolicy: SecurityPolicy.TLS13_1_2_PFS_PQ_2025_09,
      endpointAccessMode: EndpointAccessMode.STRICT,
      mapping: this.restApi,
    });
    if (zone) new ARecord(this, 'AliasRecord', { zone, recordName: name, target: RecordTarget.fromAlias(new ApiGatewayDomain(domain)) });
    return domain;
  }
}
