import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The event API Gateway (REST, Lambda proxy) would send for this request, so the sandbox invokes handlers
 * exactly as AWS does.
 */
export function toApiGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  route: { resource: string; pathParameters: Record<string, string> | null },
  nowMs: number,
  /** API Gateway's id of the request; the sandbox server picks it first, so its own answers carry it too. */
  requestId: string = randomUUID(),
): APIGatewayProxyEvent {
  // No prototype: a header or query name like `constructor` or `__proto__` must be a plain entry (as in the JSON
  // API Gateway sends), not Object.prototype's member, on which `??= []` then `.push` threw a 500.
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  const multiValueHeaders: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  const multiQuery: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [k, v] of url.searchParams) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }
  const hasQuery = Object.keys(query).length > 0;
  // API Gateway passes text bodies as they came; only non-UTF-8 bytes would need base64, which JSON never is.
  const text = body.length > 0 ? body.toString('utf8') : null;
  return {
    resource: route.resource,
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: route.pathParameters,
    stageVariables: null,
    body: text,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'sandbox',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: req.method ?? 'GET',
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? null } as APIGatewayProxyEvent['requestContext']['identity'],
      path: url.pathname,
      stage: 'sandbox',
      requestId,
      requestTimeEpoch: nowMs,
      resourceId: 'sandbox',
      resourcePath: route.resource,
    },
  };
}

/** The deprecated callbacks of the Lambda context: never called by our handlers, shared by every request. */
const ignored = () => undefined;

export function lambdaContext(functionName: string, requestId: string, timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'sandbox',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: ignored,
    fail: ignored,
    succeed: ignored,
  };
}
