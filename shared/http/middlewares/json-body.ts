import type { MiddlewareObj, Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError } from '../../errors.ts';

/**
 * JSON bodies: refuses oversized ones before parsing (413), then lets middy's parser check the content type (415)
 * and the syntax (400), including its guard against __proto__ keys.
 */
export function jsonBody(maxBytes: number): MiddlewareObj<APIGatewayProxyEvent>[] {
  const sizeLimitBefore = (request: Request<APIGatewayProxyEvent>) => {
    const body = request.event.body ?? '';
    const bytes = request.event.isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
    if (bytes > maxBytes) {
      throw new ApiError(413, 'payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
    }
  };
  return [{ before: sizeLimitBefore, name: 'bodySizeLimit' }, httpJsonBodyParser() as MiddlewareObj<APIGatewayProxyEvent>];
}
