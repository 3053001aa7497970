/**
 * The user directory in AWS: an Amazon Cognito user pool (infra/constructs/user-pool.ts). The API signs in on the
 * user's behalf (ADMIN_USER_PASSWORD_AUTH on a server-side app client with a secret-less, admin-only flow) and hands
 * out Cognito's ID token, which aws-jwt-verify checks on every call (signature against the pool's JWKS, issuer,
 * audience, token_use, expiry). A user's Cognito user name is our user id (usr_…), their email an alias.
 *
 * MFA enrolment needs the user's access token (AssociateSoftwareToken, VerifySoftwareToken take no IAM identity), which
 * the page never holds: the API signs in again with the password the user re-enters, and keeps the access token in the
 * sealed enrolment session until the first code (shared/dashboard/mfa-enrolment-session.ts). Turning MFA off signs in
 * with password and code, which proves both, then sets the preference (AdminSetUserMFAPreference).
 */
import type { AuthenticationResultType, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { onFirstUse } from '../background/background-ports.ts';
import { cognitoTokenVerifier, type CognitoPool } from './cognito-token-verifier.ts';
import { IncorrectMfaCodeError, IncorrectPasswordError, MfaAlreadyEnabledError, MfaCodeUsedError, MfaEnrolmentExpiredError, MfaNotEnabledError } from './mfa-errors.ts';
import { totpUri } from './totp.ts';
import type { SignInResult, UserDirectory } from './user-directory.ts';

/** Cognito's answers that mean "wrong credentials or code" rather than a fault of ours. */
const REFUSALS = new Set(['NotAuthorizedException', 'UserNotFoundException', 'CodeMismatchException', 'ExpiredCodeException', 'PasswordResetRequiredException', 'UserNotConfirmedException']);

/** Cognito's answers to a wrong TOTP code. */
const CODE_REFUSALS = new Set(['CodeMismatchException', 'EnableSoftwareTokenMFAException']);
/**
 * Cognito's answer to a right TOTP code used a second time within its step: ExpiredCodeException, "Your software
 * token has already been used once." (moto takes a code again: docs/aws-harness.md).
 */
const CODE_USED = 'ExpiredCodeException';
/** A refused TOTP code as our error: used already, or wrong. */
const codeError = (error: unknown): Error | null => (errorName(error) === CODE_USED ? new MfaCodeUsedError() : CODE_REFUSALS.has(errorName(error)) ? new IncorrectMfaCodeError() : null);
const errorName = (error: unknown) => (error as { name?: string }).name ?? '';

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
 * The directory over a pool. `cognito` replaces the client (tests); the function needs cognito-idp AdminInitiateAuth,
 * AdminRespondToAuthChallenge, AdminCreateUser and AdminDeleteUser on the pool (granted per route by the stack).
 */
export function createCognitoUserDirectory(pool: CognitoPool, cognito?: CognitoIdentityProviderClient): UserDirectory {
  const tokens = cognitoTokenVerifier(pool);
  // The Cognito SDK loads on the first call, not at import: importing it cost the sign-in, MFA and user routes about
  // 40 ms of CPU at each cold start (docs/benchmarks.md). It stays external to the bundle (the runtime's SDK).
  const connect = onFirstUse(async () => {
    const sdk = await import('@aws-sdk/client-cognito-identity-provider');
    return { sdk, client: cognito ?? new sdk.CognitoIdentityProviderClient({}) };
  });
  const answer = async (
    call: () => Promise<{ AuthenticationResult?: AuthenticationResultType; ChallengeName?: string; Session?: string; ChallengeParameters?: Record<string, string> }>,
    username: string,
  ): Promise<SignInResult> => {
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
      // Any other challenge (MFA_SETUP comes only from a pool that requires MFA, which ours does not): refused.
      return { kind: 'refused' };
    } catch (error) {
      // A used code is told apart, so the user waits for the next one (the session stays open for it).
      if (errorName(error) === CODE_USED) return { kind: 'refused', reason: 'code_used' };
      if (REFUSALS.has(errorName(error))) return { kind: 'refused' };
      throw error;
    }
  };
  /** Signs in with the user's password for a security change: the tokens, or the TOTP challenge of a user with MFA on. */
  const reauthenticate = async (user: { email: string }, password: string) => {
    const { sdk, client } = await connect();
    try {
      return await client.send(
        new sdk.AdminInitiateAuthCommand({ UserPoolId: pool.userPoolId, ClientId: pool.clientId, AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: user.email, PASSWORD: password } }),
      );
    } catch (error) {
      if (REFUSALS.has(errorName(error))) throw new IncorrectPasswordError();
      throw error;
    }
  };
  const setTotpPreference = async (userId: string, enabled: boolean) => {
    const { sdk, client } = await connect();
    await client.send(new sdk.AdminSetUserMFAPreferenceCommand({ UserPoolId: pool.userPoolId, Username: userId, SoftwareTokenMfaSettings: { Enabled: enabled, PreferredMfa: enabled } }));
  };
  return {
    verify: (token) => tokens.verify(token),
    signIn: (email, password) =>
      answer(async () => {
        const { sdk, client } = await connect();
        return client.send(new sdk.AdminInitiateAuthCommand({ UserPoolId: pool.userPoolId, ClientId: pool.clientId, AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }));
      }, email),
    async challengeUser(challengeSession, challenge) {
      const unpacked = unpackSession(challengeSession);
      // The MFA challenge names the user by their Cognito user name: our id.
      return unpacked && CHALLENGES[unpacked.challenge] === challenge && unpacked.username.startsWith('usr_') ? unpacked.username : null;
    },
    // Cognito takes a session once (a second answer is NotAuthorizedException); ours checks the route's challenge.
    async respond(challengeSession, challenge, response) {
      const unpacked = unpackSession(challengeSession);
      if (!unpacked || CHALLENGES[unpacked.challenge] !== challenge) return { kind: 'refused' };
      const field = unpacked.challenge === 'SOFTWARE_TOKEN_MFA' ? 'SOFTWARE_TOKEN_MFA_CODE' : 'NEW_PASSWORD';
      return answer(async () => {
        const { sdk, client } = await connect();
        return client.send(
          new sdk.AdminRespondToAuthChallengeCommand({
            UserPoolId: pool.userPoolId,
            ClientId: pool.clientId,
            ChallengeName: unpacked.challenge,
            Session: unpacked.session,
            ChallengeResponses: { USERNAME: unpacked.username, [field]: response },
          }),
        );
      }, unpacked.username);
    },
    async createLogin(user) {
      // Cognito emails the invitation with a temporary password; the answer carries none.
      const { sdk, client } = await connect();
      await client.send(
        new sdk.AdminCreateUserCommand({
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
    // Revokes the user's refresh and access tokens (an enrolment's sealed access token with them); ID tokens stay
    // valid to their expiry, which is why the API's own session is what refuses a signed-out token.
    async signOut(userId) {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.AdminUserGlobalSignOutCommand({ UserPoolId: pool.userPoolId, Username: userId }));
      } catch (error) {
        if (errorName(error) !== 'UserNotFoundException') throw error;
      }
    },
    // An invitation's answer carries nothing in AWS (Cognito emails it); the email's owner gets no second invitation.
    placeholderLogin: async () => ({}),
    async removeLogin(userId) {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.AdminDeleteUserCommand({ UserPoolId: pool.userPoolId, Username: userId }));
      } catch (error) {
        if (errorName(error) !== 'UserNotFoundException') throw error;
      }
    },
    async mfaEnabled(userId) {
      const { sdk, client } = await connect();
      const { UserMFASettingList } = await client.send(new sdk.AdminGetUserCommand({ UserPoolId: pool.userPoolId, Username: userId }));
      return UserMFASettingList?.includes('SOFTWARE_TOKEN_MFA') ?? false;
    },
    async startMfaEnrolment(user, password) {
      const signedIn = await reauthenticate(user, password);
      if (signedIn.ChallengeName === 'SOFTWARE_TOKEN_MFA') throw new MfaAlreadyEnabledError();
      const accessToken = signedIn.AuthenticationResult?.AccessToken;
      if (!accessToken) throw new Error(`Cognito answered ${signedIn.ChallengeName ?? 'no tokens'} to a signed-in user's password`);
      const { sdk, client } = await connect();
      const { SecretCode } = await client.send(new sdk.AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
      if (!SecretCode) throw new Error('Cognito associated no software token');
      return { secret: SecretCode, otpauthUri: totpUri(SecretCode, user.email), enrolmentState: accessToken };
    },
    async confirmMfaEnrolment(user, accessToken, code) {
      const { sdk, client } = await connect();
      try {
        const { Status } = await client.send(new sdk.VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code, FriendlyDeviceName: 'svc dashboard' }));
        if (Status !== 'SUCCESS') throw new IncorrectMfaCodeError();
      } catch (error) {
        const refused = codeError(error);
        if (refused) throw refused;
        // The access token expired or was revoked: the enrolment has to start again.
        if (errorName(error) === 'NotAuthorizedException') throw new MfaEnrolmentExpiredError();
        throw error;
      }
      await setTotpPreference(user.id, true);
    },
    async disableMfa(user, password, code) {
      const signedIn = await reauthenticate(user, password);
      if (signedIn.ChallengeName !== 'SOFTWARE_TOKEN_MFA' || !signedIn.Session) throw new MfaNotEnabledError();
      const { sdk, client } = await connect();
      try {
        await client.send(
          new sdk.AdminRespondToAuthChallengeCommand({
            UserPoolId: pool.userPoolId,
            ClientId: pool.clientId,
            ChallengeName: 'SOFTWARE_TOKEN_MFA',
            Session: signedIn.Session,
            ChallengeResponses: { USERNAME: signedIn.ChallengeParameters?.USER_ID_FOR_SRP ?? user.id, SOFTWARE_TOKEN_MFA_CODE: code },
          }),
        );
      } catch (error) {
        throw codeError(error) ?? (errorName(error) === 'NotAuthorizedException' ? new IncorrectMfaCodeError() : error);
      }
      await setTotpPreference(user.id, false);
    },
  };
}
