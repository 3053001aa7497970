import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { AuthenticationError } from '../../errors.ts';
import type { RouteDefinition } from '../../routes.ts';

/**
 * Every value a header was sent with, whatever the case of its name each time: API Gateway keeps them all in
 * multiValueHeaders, while `headers` holds only the last.
 */
export function headerValues(event: Pick<APIGatewayProxyEvent, 'multiValueHeaders' | 'headers'>, name: string): string[] {
  const lower = name.toLowerCase();
  const all = Object.entries(event.multiValueHeaders ?? {}).filter(([key]) => key.toLowerCase() === lower);
  if (all.length > 0) return all.flatMap(([, values]) => values ?? []);
  return Object.entries(event.headers ?? {}).filter(([key, value]) => key.toLowerCase() === lower && value !== undefined).map(([, value]) => value!);
}

/**
 * Refuses a request with more than one Authorization header (two merchants' keys, say) with 401: ambiguous
 * credentials are never resolved by order. Runs before the header normalizer, which would keep only one of them.
 *
 * @example
 * middy().use(singleCredentials(route)).use(httpHeaderNormalizer())
 */
export function singleCredentials(route: Pick<RouteDefinition, 'auth'>): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const singleCredentialsBefore = async (request: { event: APIGatewayProxyEvent }) => {
    if (route.auth !== 'public' && headerValues(request.event, 'authorization').length > 1) {
      throw new AuthenticationError('Send exactly one Authorization header: a request carrying several credentials is ambiguous and is refused.');
    }
  };
  return { before: singleCredentialsBefore, name: 'singleCredentials' };
}
