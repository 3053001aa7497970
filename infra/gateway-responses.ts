import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { DEFAULT_DOCS_BASE_URL, docUrlFor, requestIdFor } from '../shared/http/request-id.ts';
import { errorBody, SECURITY_HEADERS } from '../shared/http/response.ts';

export interface GatewayResponseDefinition {
  type: ResponseType;
  statusCode: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

const RATE_LIMITED = { statusCode: 429, code: 'rate_limited', message: 'Rate limit exceeded. Please retry later.', headers: { 'Retry-After': '1' } };
const ROUTE_NOT_FOUND = { statusCode: 404, code: 'route_not_found', message: 'No route for this method and path.' };
const INVALID_REQUEST = { statusCode: 400, code: 'invalid_request', message: 'The request is not valid.' };
const INTERNAL_ERROR = { statusCode: 500, code: 'internal_error', message: 'An unexpected error occurred; retry later.' };
const ACCESS_DENIED = { statusCode: 403, code: 'access_denied', message: 'Access denied.' };

/**
 * Every answer API Gateway gives on its own, in the API's one error shape. Gateway response templates are not
 * run through VTL, so a body cannot read the status code: each type is listed with its status here.
 * DEFAULT_4XX/5XX keep no status of their own (setting one would override every 4XX/5XX type); with every
 * type listed they only catch types AWS adds later.
 * Without an authorizer, API Gateway answers an unknown path or method with MISSING_AUTHENTICATION_TOKEN (403);
 * the API answers it, like the sandbox, as a 404.
 */
export const gatewayResponses: GatewayResponseDefinition[] = [
  { type: ResponseType.DEFAULT_4XX, ...INVALID_REQUEST },
  { type: ResponseType.DEFAULT_5XX, ...INTERNAL_ERROR },
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, ...ROUTE_NOT_FOUND },
  { type: ResponseType.RESOURCE_NOT_FOUND, ...ROUTE_NOT_FOUND },
  { type: ResponseType.BAD_REQUEST_BODY, ...INVALID_REQUEST },
  { type: ResponseType.BAD_REQUEST_PARAMETERS, ...INVALID_REQUEST },
  { type: ResponseType.REQUEST_TOO_LARGE, statusCode: 413, code: 'payload_too_large', message: 'The request body is too large.' },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, statusCode: 415, code: 'unsupported_media_type', message: 'Send the body as application/json.' },
  { type: ResponseType.THROTTLED, ...RATE_LIMITED },
  { type: ResponseType.QUOTA_EXCEEDED, ...RATE_LIMITED },
  { type: ResponseType.UNAUTHORIZED, statusCode: 401, code: 'invalid_api_key', message: 'Invalid or missing secret key. Send it as: Authorization: Bearer sk_test_...' },
  { type: ResponseType.ACCESS_DENIED, ...ACCESS_DENIED },
  { type: ResponseType.INVALID_API_KEY, ...ACCESS_DENIED },
  { type: ResponseType.INVALID_SIGNATURE, ...ACCESS_DENIED },
  { type: ResponseType.EXPIRED_TOKEN, ...ACCESS_DENIED },
  { type: ResponseType.WAF_FILTERED, statusCode: 403, code: 'request_blocked', message: 'The request was blocked.' },
  { type: ResponseType.AUTHORIZER_FAILURE, ...INTERNAL_ERROR },
  { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, ...INTERNAL_ERROR },
  { type: ResponseType.API_CONFIGURATION_ERROR, ...INTERNAL_ERROR },
  // 502 rather than API Gateway's 504: the function failed, it did not time out.
  { type: ResponseType.INTEGRATION_FAILURE, statusCode: 502, code: 'upstream_unavailable', message: 'The service did not answer; retry later.' },
  { type: ResponseType.INTEGRATION_TIMEOUT, statusCode: 504, code: 'timeout', message: 'The service took too long to answer; retry later.' },
];

/** Is this type's own status the one listed? Only then may the response set it (see above). */
export const setsStatusCode = (definition: GatewayResponseDefinition) =>
  definition.type !== ResponseType.DEFAULT_4XX && definition.type !== ResponseType.DEFAULT_5XX;

/**
 * The body, as a gateway response template: the same JSON the Lambda handlers render, with the request id (API
 * Gateway substitutes $context variables in these templates) and the code's docUrl. The request id is also in API
 * Gateway's own x-amzn-RequestId header; a Request-Id header cannot be mapped from the context here.
 */
export const gatewayResponseTemplate = ({ statusCode, code, message }: GatewayResponseDefinition, docsBaseUrl = DEFAULT_DOCS_BASE_URL) =>
  JSON.stringify({ ...errorBody(statusCode, code, message), requestId: requestIdFor('$context.requestId'), docUrl: docUrlFor(docsBaseUrl, code) });

/**
 * Headers as API Gateway static values ('value'). A value can hold no quote of its own, so the Content-Security-Policy
 * (with 'none') stays with the Lambda responses; it matters for HTML, not for these JSON errors.
 */
export function gatewayResponseHeaders(definition: GatewayResponseDefinition): Record<string, string> {
  const headers = { ...SECURITY_HEADERS, ...definition.headers };
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => !value.includes("'")).map(([name, value]) => [name, `'${value}'`]));
}
