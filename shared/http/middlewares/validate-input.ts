import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod';
import { parseInput } from '../../schemas/validation.ts';
import { requestState } from '../request-state.ts';

export interface InputSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

/** Validates path, query and body with the route's zod schemas; the handler sees only the parsed values. */
export function validateInput(schemas: InputSchemas): MiddlewareObj<APIGatewayProxyEvent> {
  const validateInputBefore = (request: Request<APIGatewayProxyEvent>) => {
    const { event } = request;
    requestState(request.context).input = {
      params: schemas.params ? parseInput(schemas.params, event.pathParameters ?? {}, 'path') : undefined,
      query: schemas.query ? parseInput(schemas.query, event.queryStringParameters ?? {}, 'query') : undefined,
      body: schemas.body ? parseInput(schemas.body, event.body, 'body') : undefined,
    };
  };
  return { before: validateInputBefore, name: 'validateInput' };
}
