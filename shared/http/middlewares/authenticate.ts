import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isUserToken, type Authenticator } from '../../auth/authenticator.ts';
import { mfaOutstanding } from '../../dashboard/dashboard-sessions.ts';
import { InvalidTokenError, MfaRequiredError } from '../../dashboard/errors.ts';
import { roleAtLeast } from '../../domain/roles.ts';
import { AuthenticationError, PermissionError } from '../../errors.ts';
import type { RouteDefinition } from '../../routes.ts';
import { requestState } from '../request-state.ts';

/**
 * Secret (sk_) and read-only (rk_) keys; a read-only key reaches only read routes. A dashboard user's token reaches
 * the routes whose manifest entry names a `dashboard` role, when the user's role is at least that one (else 403), and
 * for an admin whose session had no MFA only the routes marked `beforeMfa` (else 403 mfa_required).
 */
export function authenticate(authenticator: Authenticator, route: RouteDefinition): MiddlewareObj<APIGatewayProxyEvent> {
  const authenticateBefore = async (request: Request<APIGatewayProxyEvent>) => {
    const required = route.dashboard;
    if (required && (route.auth === 'user' || isUserToken(request.event.headers?.authorization))) {
      const auth = await authenticator.authenticateUser(request.event.headers?.authorization, request.event.headers?.['svc-mode']).catch((error: unknown) => {
        // Where API keys are accepted too, a bad token gets the one 401 of any wrong credential there.
        throw route.auth === 'secret' && error instanceof InvalidTokenError ? new AuthenticationError() : error;
      });
      if (!roleAtLeast(auth.user.role, required)) {
        throw new PermissionError(`Your role (${auth.user.role}) cannot do this: it needs ${required} or above. Ask an admin of your account.`);
      }
      // An admin whose sign-in had no second step reaches only the routes that let them add one.
      if (!route.beforeMfa && mfaOutstanding(auth.user.role, auth.dashboardSession)) throw new MfaRequiredError();
      requestState(request.context).auth = auth;
      return;
    }
    if (route.auth === 'user') throw new InvalidTokenError('This endpoint is for the dashboard: send a signed-in user token, not an API key.');
    const auth = await authenticator.authenticate(request.event.headers?.authorization, ['secret', 'restricted']);
    if (auth.keyKind === 'restricted' && route.access !== 'read') {
      throw new PermissionError('This key is read-only (rk_...). Use a secret key (sk_...) for this operation.');
    }
    requestState(request.context).auth = auth;
  };
  return { before: authenticateBefore, name: 'authenticate' };
}
