import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Authenticator } from '../../auth/authenticator.ts';
import { ownedBy } from '../../auth/ownership.ts';
import { AuthenticationError, NotFoundError } from '../../errors.ts';
import type { MerchantStore } from '../../store/merchant-store.ts';
import type { SessionStore } from '../../store/session-store.ts';
import { requestState } from '../request-state.ts';

/** The session reference names the checkout's caller: from the path ({reference}) or the body (sessionReference). */
function sessionReferenceOf(input: { params: unknown; body: unknown } | undefined): string | undefined {
  const params = input?.params as { reference?: string } | undefined;
  const body = input?.body as { sessionReference?: string } | undefined;
  return params?.reference ?? body?.sessionReference;
}

/**
 * Checkout routes, called from the buyer's browser: the session reference (unguessable, in the checkout URL) is
 * the credential, so it runs after validation has read it. A publishable key, when sent, must belong to the
 * session's merchant and mode; a secret key is refused, because it must never reach a browser.
 */
export function authenticateCheckout(
  deps: { authenticator: Authenticator; sessions: SessionStore; merchants: MerchantStore },
  route: { method: string },
): MiddlewareObj<APIGatewayProxyEvent> {
  const authenticateCheckoutBefore = async (request: Request<APIGatewayProxyEvent>) => {
    const state = requestState(request.context);
    const reference = sessionReferenceOf(state.input);
    const session = reference ? await deps.sessions.get(reference) : null;
    if (!session) throw new NotFoundError('session', state.input?.params ? 'reference' : 'sessionReference');
    const authorization = request.event.headers?.authorization;
    if (authorization !== undefined) {
      const key = await deps.authenticator.authenticate(authorization, ['publishable']);
      if (!ownedBy(session, key)) {
        throw new AuthenticationError('This publishable key does not belong to the merchant and mode of this session.');
      }
    }
    // A charge decides on the merchant's current test mode and credentials: read, not cached. The page's reads
    // take it from the cache the secret-key routes use (30 s), one GetItem less each, as expire does.
    const merchant = route.method === 'GET' ? await deps.authenticator.merchant(session.merchantId) : await deps.merchants.get(session.merchantId);
    if (!merchant) throw new NotFoundError('session', 'sessionReference');
    state.auth = { merchant, mode: session.mode, keyKind: authorization === undefined ? null : 'publishable', session };
  };
  return { before: authenticateCheckoutBefore, name: 'authenticateCheckout' };
}
