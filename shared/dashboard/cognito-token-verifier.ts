/**
 * Cognito ID tokens of the dashboard's app client, checked with aws-jwt-verify. Its own module: every function whose
 * route takes a user token bundles this, and only sign-in and user management bundle the Cognito SDK.
 */
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import type { TokenClaims, UserTokenVerifier } from './user-directory.ts';

export interface CognitoPool {
  userPoolId: string;
  clientId: string;
}

/**
 * Verifies Cognito ID tokens of the pool's app client. The JWKS is fetched once per container and cached.
 *
 * @example
 * const claims = await cognitoTokenVerifier({ userPoolId, clientId }).verify(token);
 */
export function cognitoTokenVerifier(pool: CognitoPool): UserTokenVerifier {
  const verifier = CognitoJwtVerifier.create({ userPoolId: pool.userPoolId, clientId: pool.clientId, tokenUse: 'id' });
  return {
    async verify(token): Promise<TokenClaims | null> {
      try {
        const payload = await verifier.verify(token);
        const username = payload['cognito:username'];
        if (typeof username !== 'string' || typeof payload.email !== 'string') return null;
        return { userId: username, email: payload.email, expiresAt: new Date(payload.exp * 1000).toISOString() };
      } catch {
        return null;
      }
    },
  };
}
