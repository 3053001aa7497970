import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Authenticator } from '../../auth/authenticator.ts';
import { PermissionError } from '../../errors.ts';
import type { RouteDefinition } from '../../routes.ts';
import { requestState } from '../request-state.ts';

/** Secret (sk_) and read-only (rk_) keys; a read-only key reaches only read routes. */
export function authenticate(authenticator: Authenticator, route: RouteDefinition): MiddlewareObj<APIGatewayProxyEvent> {
  const authenticateBefore = async (request: Request<APIGatewayProxyEvent>) => {
    const auth = await authenticator.authenticate(request.event.headers?.authorization, ['secret', 'restricted']);
    if (auth.keyKind === 'restricted' && route.access !== 'read') {
      throw new PermissionError('This key is read-only (rk_...). Use a secret key (sk_...) for this operation.');
    }
    requestState(request.context).auth = auth;
  };
  return { before: authenticateBefore, name: 'authenticate' };
}
