/** One problem of a request's input; a 400 lists them all in `errors`, the first also in message/field/code. */
export interface FieldProblem {
  /** Absent when the problem is the input as a whole (a body that is not a JSON object). */
  param?: string;
  code: string;
  message: string;
}

/**
 * Every non-2xx answer of the API is one of these, rendered by the error middleware as
 * `{ statusCode, error, message, code, field?, errors? }` (plus requestId and docUrl: shared/http/request-id.ts).
 */
export class ApiError extends Error {
  readonly expose = true;
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly options: { field?: string; headers?: Record<string, string>; cause?: unknown; errors?: FieldProblem[] } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, field?: string, code = 'invalid_request', errors?: FieldProblem[]) {
    super(400, code, message, { field, errors });
    this.name = 'ValidationError';
  }
}

export class AuthenticationError extends ApiError {
  constructor(message = 'Invalid or missing secret key. Send it as: Authorization: Bearer sk_test_...') {
    super(401, 'invalid_api_key', message);
    this.name = 'AuthenticationError';
  }
}

export class PermissionError extends ApiError {
  constructor(message: string) {
    super(403, 'insufficient_permissions', message);
    this.name = 'PermissionError';
  }
}

export class NotFoundError extends ApiError {
  constructor(resource: string, field?: string) {
    super(404, 'resource_missing', `No such ${resource}.`, { field });
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends ApiError {
  constructor(code: string, message: string, headers?: Record<string, string>) {
    super(409, code, message, { headers });
    this.name = 'ConflictError';
  }
}

export class GoneError extends ApiError {
  constructor(code: string, message: string) {
    super(410, code, message);
    this.name = 'GoneError';
  }
}

export class RateLimitError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Rate limit exceeded. Please retry later.', {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
    this.name = 'RateLimitError';
  }
}

export const reasonPhrase: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
