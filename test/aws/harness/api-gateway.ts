import { randomUUID } from 'node:crypto';
import type { LocalCloud } from './local-cloud.ts';
import { resolveValue, resourcesOfType, type CfnTemplate } from './template.ts';

/** One method of the template's REST API with the function its Lambda proxy integration invokes. */
export interface TemplateRoute {
  method: string;
  /** Resource path with {parameters}, as API Gateway's `resource`. */
  path: string;
  functionLogicalId: string;
  authorizationType: string;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/**
 * The routes of the template's REST API: each AWS::ApiGateway::Method, its path from the AWS::ApiGateway::Resource
 * chain, and the function its AWS_PROXY integration URI names. Only what the template wires is reachable.
 */
export function templateRoutes(template: CfnTemplate, cloud: Pick<LocalCloud, 'ids' | 'functionByArn'>): TemplateRoute[] {
  const resources = Object.fromEntries(resourcesOfType(template, 'AWS::ApiGateway::Resource'));
  const pathOf = (resourceId: unknown): string => {
    const ref = (resourceId as { Ref?: string }).Ref;
    if (!ref) return ''; // the RestApi's root resource (Fn::GetAtt RootResourceId)
    const resource = resources[ref];
    if (!resource) throw new Error(`Method on unknown resource ${ref}`);
    return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
  };
  return resourcesOfType(template, 'AWS::ApiGateway::Method')
    .filter(([, m]) => m.Properties.HttpMethod !== 'OPTIONS' && m.Properties.Integration?.Type === 'AWS_PROXY')
    .map(([id, m]) => {
      const uri = String(resolveValue(m.Properties.Integration.Uri, cloud.ids, template));
      const arn = /functions\/(.+)\/invocations$/.exec(uri)?.[1] ?? '';
      const fn = cloud.functionByArn(arn);
      if (!fn) throw new Error(`Method ${id} integrates ${uri}, which is no function of the template`);
      return { method: m.Properties.HttpMethod, path: pathOf(m.Properties.ResourceId) || '/', functionLogicalId: fn.logicalId, authorizationType: m.Properties.AuthorizationType ?? 'NONE' };
    });
}

/** The method matching a request, with its path parameters; literal path parts win over {parameters}, as in API Gateway. */
export function matchRoute(routes: TemplateRoute[], method: string, path: string): { route: TemplateRoute; pathParameters: Record<string, string> } | undefined {
  const parts = path.split('/').filter(Boolean);
  const candidates = routes
    .filter((r) => r.method === method)
    .map((route) => {
      const template = route.path.split('/').filter(Boolean);
      if (template.length !== parts.length) return undefined;
      const pathParameters: Record<string, string> = {};
      let literals = 0;
      for (const [i, part] of template.entries()) {
        const parameter = /^\{(.+)\}$/.exec(part)?.[1];
        if (parameter) pathParameters[parameter] = decodeURIComponent(parts[i]!);
        else if (part === parts[i]) literals++;
        else return undefined;
      }
      return { route, pathParameters, literals };
    })
    .filter((c) => c !== undefined)
    .sort((a, b) => b.literals - a.literals);
  return candidates[0];
}

/** An API Gateway REST API (Lambda proxy integration, payload v1) in front of the local functions. */
export class LocalRestApi {
  readonly routes: TemplateRoute[];

  constructor(private readonly cloud: LocalCloud, private readonly stage = 'dev') {
    this.routes = templateRoutes(cloud.template, cloud);
  }

  async request(method: string, pathAndQuery: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    const url = new URL(pathAndQuery, 'https://api.local');
    const match = matchRoute(this.routes, method, url.pathname);
    // What API Gateway answers for a method the API does not have.
    if (!match) return { status: 403, headers: {}, text: '{"message":"Missing Authentication Token"}', body: { message: 'Missing Authentication Token' } };
    const headers: Record<string, string> = { ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers };
    if (options.key) headers.Authorization = `Bearer ${options.key}`;
    const query = [...url.searchParams.keys()];
    const requestId = randomUUID();
    const event = {
      resource: match.route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
      queryStringParameters: query.length ? Object.fromEntries(url.searchParams) : null,
      multiValueQueryStringParameters: query.length ? Object.fromEntries(query.map((k) => [k, url.searchParams.getAll(k)])) : null,
      pathParameters: Object.keys(match.pathParameters).length ? match.pathParameters : null,
      stageVariables: null,
      body: options.body === undefined ? null : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        stage: this.stage,
        requestId,
        extendedRequestId: requestId,
        httpMethod: method,
        path: `/${this.stage}${url.pathname}`,
        resourcePath: match.route.path,
        protocol: 'HTTP/1.1',
        requestTimeEpoch: Date.now(),
        identity: { sourceIp: '203.0.113.7', userAgent: 'aws-harness' },
      },
    };
    const outcome = await this.cloud.invoke(match.route.functionLogicalId, event);
    // A function error is API Gateway's 502 "Internal server error".
    if (!outcome.ok) return { status: 502, headers: {}, text: `${outcome.errorType}: ${outcome.errorMessage}`, body: { message: 'Internal server error' } };
    const result = outcome.result as { statusCode: number; headers?: Record<string, string>; body?: string; isBase64Encoded?: boolean };
    const text = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64').toString('utf8') : (result.body ?? '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: result.statusCode, headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])), text, body };
  }
}

/**
 * What is wired wrong between the route manifest and the template: a manifest route without its method, a method
 * integrating another route's function (CDK names each `Api/<routeId>/Function`), a method the manifest lacks.
 */
export function routeWiringProblems(template: CfnTemplate, templateRoutes: TemplateRoute[], manifest: Record<string, { method: string; path: string }>): string[] {
  const problems: string[] = [];
  const cdkPath = (logicalId: string) => String(template.Resources[logicalId]?.Metadata?.['aws:cdk:path'] ?? '');
  for (const [routeId, { method, path }] of Object.entries(manifest)) {
    const route = templateRoutes.find((r) => r.method === method && r.path === path);
    if (!route) problems.push(`${routeId}: ${method} ${path} is in the manifest but not in the template`);
    else if (!cdkPath(route.functionLogicalId).includes(`/${routeId}/Function/`)) problems.push(`${routeId}: ${method} ${path} invokes ${cdkPath(route.functionLogicalId)}`);
  }
  for (const route of templateRoutes) {
    if (!Object.values(manifest).some((m) => m.method === route.method && m.path === route.path)) problems.push(`${route.method} ${route.path} is in the template but not in the manifest`);
  }
  return problems;
}
