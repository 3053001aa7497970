/**
 * The user directory in AWS: an Amazon Cognito user pool (infra/constructs/user-pool.ts). The API signs in on the
 * user's behalf (ADMIN_USER_PASSWORD_AUTH on a server-side app client with a secret-less, admin-only flow) and hands
 * out Cognito's ID token, which aws-jwt-verify checks on every call (signature against the pool's JWKS, issuer,
 * audience, token_use, expiry). A user's Cognito user name is our user id (usr_…), their email an alias.
 */
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminInitiateAuthCommand,
  AdminRespondToAuthChallengeCommand,
  CognitoIdentityProviderClient,
  type AuthenticationResultType,
} from '@aws-sdk/client-cognito-identity-provider';
import { cognitoTokenVerifier, type CognitoPool } from './cognito-token-verifier.ts';
import type { SignInResult, UserDirectory } from './user-directory.ts';

/** Cognito's answers that mean "wrong credentials or code" rather than a fault of ours. */
const REFUSALS = new Set(['NotAuthorizedException', 'UserNotFoundException', 'CodeMismatchException', 'ExpiredCodeException', 'PasswordResetRequiredException', 'UserNotConfirmedException']);

/** Cognito's challenge names and ours. */
const CHALLENGES = { SOFTWARE_TOKEN_MFA: 'mfa', NEW_PASSWORD_REQUIRED: 'new_password' } as const;
type CognitoChallenge = keyof typeof CHALLENGES;

/** The opaque challengeSession the page sends back: Cognito's session plus what RespondToAuthChallenge needs with it. */
const packSession = (challenge: CognitoChallenge, username: string, session: string) => Buffer.from(JSON.stringify({ challenge, username, session })).toString('base64url');
function unpackSession(packed: string): { challenge: CognitoChallenge; username: string; session: string } | null {
  try {
    const value = JSON.parse(Buffer.from(packed, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof value.challenge !== 'string' || !(value.challenge in CHALLENGES) || typeof value.username !== 'string' || typeof value.session !== 'string') return null;
    return value as { challenge: CognitoChallenge; username: string; session: string };
  } catch {
    return null;
  }
}

/**
 * The directory over a pool. `client` is injectable for tests; the function needs cognito-idp AdminInitiateAuth,
 * AdminRespondToAuthChallenge, AdminCreateUser and AdminDeleteUser on the pool (granted per route by the stack).
 */
export function createCognitoUserDirectory(pool: CognitoPool, client = new CognitoIdentityProviderClient({})): UserDirectory {
  const tokens = cognitoTokenVerifier(pool);
  const answer = async (call: () => Promise<{ AuthenticationResult?: AuthenticationResultType; ChallengeName?: string; Session?: string; ChallengeParameters?: Record<string, string> }>, username: string): Promise<SignInResult> => {
    try {
      const result = await call();
      const idToken = result.AuthenticationResult?.IdToken;
      if (idToken) {
        const claims = await tokens.verify(idToken);
        if (!claims) return { kind: 'refused' };
        return { kind: 'token', token: idToken, expiresAt: claims.expiresAt, userId: claims.userId };
      }
      const challenge = result.ChallengeName as CognitoChallenge | undefined;
      if (challenge && challenge in CHALLENGES && result.Session) {
        const name = result.ChallengeParameters?.USER_ID_FOR_SRP ?? username;
        return { kind: 'challenge', challenge: CHALLENGES[challenge], challengeSession: packSession(challenge, name, result.Session) };
      }
      // Any other challenge (e.g. MFA_SETUP) is not one the dashboard offers yet: refused like bad credentials.
      return { kind: 'refused' };
    } catch (error) {
      if (REFUSALS.has((error as { name?: string }).name ?? '')) return { kind: 'refused' };
      throw error;
    }
  };
  return {
    verify: (token) => tokens.verify(token),
    signIn: (email, password) =>
      answer(
        () => client.send(new AdminInitiateAuthCommand({ UserPoolId: pool.userPoolId, ClientId: pool.clientId, AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } })),
        email,
      ),
    async respond(challengeSession, response) {
      const unpacked = unpackSession(challengeSession);
      if (!unpacked) return { kind: 'refused' };
      const field = unpacked.challenge === 'SOFTWARE_TOKEN_MFA' ? 'SOFTWARE_TOKEN_MFA_CODE' : 'NEW_PASSWORD';
      return answer(
        () =>
          client.send(
            new AdminRespondToAuthChallengeCommand({
              UserPoolId: pool.userPoolId,
              ClientId: pool.clientId,
              ChallengeName: unpacked.challenge,
              Session: unpacked.session,
              ChallengeResponses: { USERNAME: unpacked.username, [field]: response },
            }),
          ),
        unpacked.username,
      );
    },
    async createLogin(user) {
      // Cognito emails the invitation with a temporary password; the answer carries none.
      await client.send(
        new AdminCreateUserCommand({
          UserPoolId: pool.userPoolId,
          Username: user.id,
          UserAttributes: [
            { Name: 'email', Value: user.email },
            { Name: 'email_verified', Value: 'true' },
          ],
          DesiredDeliveryMediums: ['EMAIL'],
        }),
      );
      return {};
    },
    async removeLogin(userId) {
      try {
        await client.send(new AdminDeleteUserCommand({ UserPoolId: pool.userPoolId, Username: userId }));
      } catch (error) {
        if ((error as { name?: string }).name !== 'UserNotFoundException') throw error;
      }
    },
  };
}
