import type { Logger } from '@aws-lambda-powertools/logger';
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '../../errors.ts';
import { errorBody, jsonResponse } from '../response.ts';

/** Status codes of middy's own HTTP errors (body parser and friends) and the codes we give them. */
const MIDDY_ERROR_CODES: Record<number, { status: number; code: string; message?: string }> = {
  415: { status: 415, code: 'unsupported_media_type', message: 'Send the body as JSON with Content-Type: application/json.' },
  422: { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' },
};

/**
 * Turns any thrown error into the one JSON error shape. Known errors keep their status and message; anything
 * else is logged and answered with a generic 500 that reveals nothing of the internals.
 */
export function toErrorResponse(error: unknown, logger: Logger): APIGatewayProxyResult {
  if (error instanceof ApiError) {
    return jsonResponse(error.statusCode, errorBody(error.statusCode, error.code, error.message, error.options.field, error.options.errors), error.options.headers);
  }
  const http = error as { statusCode?: number; expose?: boolean; message?: string };
  if (typeof http.statusCode === 'number' && http.statusCode < 500 && http.expose !== false) {
    const mapped = MIDDY_ERROR_CODES[http.statusCode] ?? { status: http.statusCode, code: 'invalid_request' };
    return jsonResponse(mapped.status, errorBody(mapped.status, mapped.code, mapped.message ?? 'Invalid request.'));
  }
  logger.error('Unhandled error', { error: error as Error });
  return jsonResponse(500, errorBody(500, 'internal_error', 'An unexpected error occurred. It has been logged; retry later.'));
}

export function errorResponse(logger: Logger): MiddlewareObj {
  const errorResponseOnError = (request: Request) => {
    request.response = toErrorResponse(request.error, logger);
  };
  return { onError: errorResponseOnError, name: 'errorResponse' };
}
