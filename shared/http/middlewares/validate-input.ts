import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod';
import type { FieldProblem } from '../../errors.ts';
import { checkInput, invalidInput, type InputLocation } from '../../schemas/validation.ts';
import { requestState } from '../request-state.ts';

export interface InputSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

/**
 * Validates path, query and body with the route's zod schemas; the handler sees only the parsed values. The problems
 * of all three are answered together, in one 400.
 */
export function validateInput(schemas: InputSchemas): MiddlewareObj<APIGatewayProxyEvent> {
  const validateInputBefore = (request: Request<APIGatewayProxyEvent>) => {
    const { event } = request;
    const problems: FieldProblem[] = [];
    const parsed = (schema: z.ZodType | undefined, value: unknown, location: InputLocation) => {
      if (!schema) return undefined;
      const checked = checkInput(schema, value, location);
      if (checked.ok) return checked.data;
      problems.push(...checked.problems);
      return undefined;
    };
    const input = {
      params: parsed(schemas.params, event.pathParameters ?? {}, 'path'),
      query: parsed(schemas.query, event.queryStringParameters ?? {}, 'query'),
      body: parsed(schemas.body, event.body, 'body'),
    };
    if (problems.length > 0) throw invalidInput(problems);
    requestState(request.context).input = input;
  };
  return { before: validateInputBefore, name: 'validateInput' };
}
