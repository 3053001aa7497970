/**
 * Request ids: every answer of the API carries `Request-Id`, and an error body carries it too (`requestId`) with an
 * absolute link to the error's entry in the docs (`docUrl`), so a developer can quote the id to support and read the fix.
 * The id is API Gateway's own request id (`req_` + `$context.requestId`): the same one its access logs, the
 * gateway's own error answers (infra/gateway-responses.ts) and every log line of the request carry.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

export const REQUEST_ID_HEADER = 'Request-Id';

/** The docs page whose table has an anchor per error code (docs/errors.md), where the docs are served. */
export const ERRORS_DOC_PATH = '/docs/errors';

/**
 * The errors page of docs served at an origin: the sandbox serves them itself, AWS with the dashboard's site.
 *
 * @example
 * docsBaseUrlAt('http://localhost:4010') // 'http://localhost:4010/docs/errors'
 */
export const docsBaseUrlAt = (origin: string): string => `${origin}${ERRORS_DOC_PATH}`;

/**
 * Where docUrl points when nothing says otherwise (DOCS_BASE_URL unset): the errors page of a sandbox at its
 * default address. The sandbox sets its own address and the stack the dashboard site's (docs/errors.md).
 */
export const DEFAULT_DOCS_BASE_URL = docsBaseUrlAt('http://localhost:4010');

/**
 * The request id of an API Gateway request; the Lambda request id when invoked without API Gateway.
 *
 * @example
 * requestIdOf(event, context) // 'req_c6af9ac6-7b61-11e6-9a41-93e8deadbeef'
 */
export const requestIdOf = (event: Pick<APIGatewayProxyEvent, 'requestContext'>, context: Pick<Context, 'awsRequestId'>): string =>
  requestIdFor(event.requestContext?.requestId ?? context.awsRequestId);

/** The request id of API Gateway's request id: the form infra/gateway-responses.ts writes with $context.requestId. */
export const requestIdFor = (apiGatewayRequestId: string): string => `req_${apiGatewayRequestId}`;

/**
 * The docs entry of an error code: its heading in docs/errors.md carries the anchor `error-<code>`.
 *
 * @example
 * docUrlFor('http://localhost:4010/docs/errors', 'parameter_invalid') // 'http://localhost:4010/docs/errors#error-parameter_invalid'
 */
export const docUrlFor = (docsBaseUrl: string, code: string): string => `${docsBaseUrl}#error-${code}`;

const isJson = (result: APIGatewayProxyResult) => /^application\/json/.test(String(result.headers?.['Content-Type'] ?? ''));

/** The machine code of an error answer (its body's `code`); null for a success or a body that is not the error shape. */
export function errorCodeOf(result: APIGatewayProxyResult): string | null {
  if (result.statusCode < 400 || !isJson(result) || result.isBase64Encoded) return null;
  try {
    const code = (JSON.parse(result.body) as { code?: unknown }).code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/**
 * The answer with its request id: the header on every answer, and on an error body `requestId` and `docUrl` after
 * the other fields. Applied last, to whatever the handler, a middleware or a stored idempotent replay answered.
 */
export function withRequestId(result: APIGatewayProxyResult, requestId: string, docsBaseUrl: string): APIGatewayProxyResult {
  const headers = { ...result.headers, [REQUEST_ID_HEADER]: requestId };
  const code = errorCodeOf(result);
  if (code === null) return { ...result, headers };
  const body = JSON.parse(result.body) as Record<string, unknown>;
  return { ...result, headers, body: JSON.stringify({ ...body, requestId, docUrl: docUrlFor(docsBaseUrl, code) }) };
}
