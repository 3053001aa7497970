/**
 * The sandbox's user directory, behind the same port as Cognito: scrypt password hashes in the table and JWTs
 * (HS256) signed with a key from the sandbox's key folder. A temporary password must be changed at first sign-in,
 * as Cognito asks (the `new_password` challenge). TOTP MFA as Cognito's: the secret sealed in the login item, a
 * sign-in of a user with MFA on answers the `mfa` challenge, and a code is taken once (the last step used is kept).
 * A challenge session names its purpose and is answered once (its jti is recorded), as Cognito's sessions are.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, DeleteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SignJWT, jwtVerify } from 'jose';
import { systemClock, type Clock } from '../clock.ts';
import { randomToken } from '../ids.ts';
import { keys } from '../store/keys.ts';
import { createUserStore, type UserStore } from '../store/user-store.ts';
import { readOrCreateKeyFile } from '../crypto/local-key-file.ts';
import { localSecretBox } from '../crypto/local-secret-box.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { join } from 'node:path';
import { normaliseEmail } from '../domain/dashboard-user.ts';
import { IncorrectMfaCodeError, IncorrectPasswordError, MfaAlreadyEnabledError, MfaCodeUsedError, MfaNotEnabledError } from './mfa-errors.ts';
import { hashPassword, PASSWORD_COST, unmatchableHash, verifyPassword, type PasswordCost } from './password-hash.ts';
import { newTotpSecret, totpStep, totpUri } from './totp.ts';
import type { LoginUser, SignInResult, TokenClaims, UserDirectory } from './user-directory.ts';

/** How long a dashboard token lasts (as the Cognito app client's ID tokens). */
export const TOKEN_LIFETIME_MS = 60 * 60_000;
const CHALLENGE_LIFETIME_MS = 5 * 60_000;
const ISSUER = 'svc-sandbox';
const AUDIENCE = 'svc-dashboard';

export interface LocalUserDirectoryOptions {
  db: DynamoDBDocumentClient;
  tableName: string;
  users: UserStore;
  /** 32 bytes from the sandbox's key folder: tokens survive a restart of the sandbox. */
  signingKey: Uint8Array;
  /** Seals each user's TOTP secret (never kept in clear). */
  secretBox: SecretBox;
  clock: Clock;
  /**
   * The time the user's authenticator app keeps, which codes are checked against: real time (default), not `clock`,
   * since moving the sandbox clock does not move the user's phone. Tests inject one they move instead of waiting.
   */
  authenticatorClock?: Clock;
  /**
   * scrypt's work factors for the hashes it makes (default PASSWORD_COST). The test sandbox lowers them: its tests
   * check what the directory does with a password, not how costly a guess is (test/support/sandbox.ts).
   */
  passwordCost?: PasswordCost;
}

/** The login item: the password hash and, with MFA on, the sealed TOTP secret and the last time step a code was used for. */
interface LocalLogin {
  passwordHash: string;
  mustChangePassword: boolean;
  mfaSecret?: string;
  lastMfaStep?: number;
}

const mfaSecretContext = (userId: string) => ({ userId, purpose: 'dashboard_mfa_secret' });
const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException || (error as { name?: string }).name === 'ConditionalCheckFailedException';

/** A temporary password that meets the policy: shown once, changed at first sign-in. */
const temporaryPassword = (): string => `${randomToken(16)}-Aa1`;

/**
 * The sandbox's directory can also set a password: the seeded admin's, which `npm start` prints (temporary: changed at
 * the first sign-in, as an invited user's), and say whether a user's is still temporary.
 */
export interface LocalUserDirectory extends UserDirectory {
  setPassword(userId: string, password: string, options?: { temporary?: boolean }): Promise<void>;
  hasTemporaryPassword(userId: string): Promise<boolean>;
}

export function createLocalUserDirectory({ db, tableName, users, signingKey, secretBox, clock, authenticatorClock = systemClock, passwordCost = PASSWORD_COST }: LocalUserDirectoryOptions): LocalUserDirectory {
  const hash = (password: string) => hashPassword(password, passwordCost);
  const unmatchable = unmatchableHash(passwordCost);
  const sign = async (claims: Record<string, unknown>, subject: string, lifetimeMs: number) => {
    const now = clock.now();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor((now + lifetimeMs) / 1000))
      .sign(signingKey);
    return { token, expiresAt: new Date(Math.floor((now + lifetimeMs) / 1000) * 1000).toISOString() };
  };
  const verifyJwt = async (token: string) => {
    try {
      const { payload } = await jwtVerify(token, signingKey, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], currentDate: new Date(clock.now()) });
      return payload;
    } catch {
      return null;
    }
  };
  const login = async (userId: string) => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.localLogin(userId), ConsistentRead: true }));
    return Item as LocalLogin | undefined;
  };
  const newLogin = (userId: string, passwordHash: string) =>
    db.send(new PutCommand({ TableName: tableName, Item: { ...keys.localLogin(userId), type: 'local_login', passwordHash, mustChangePassword: true } }));
  // An update, not a put: a new password keeps the user's MFA.
  const savePassword = (userId: string, passwordHash: string, temporary = false) =>
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.localLogin(userId),
        UpdateExpression: 'SET #type = :type, passwordHash = :hash, mustChangePassword = :temporary',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'local_login', ':hash': passwordHash, ':temporary': temporary },
      }),
    );
  // A jti as Cognito's tokens have: two sign-ins in one second are two tokens, two sessions.
  const issue = async (userId: string, email: string): Promise<SignInResult> => ({ kind: 'token', userId, ...(await sign({ email, token_use: 'id', jti: randomToken() }, userId, TOKEN_LIFETIME_MS)) });
  const challenge = async (purpose: 'new_password' | 'mfa', userId: string): Promise<SignInResult> => ({
    kind: 'challenge',
    challenge: purpose,
    challengeSession: (await sign({ purpose, jti: randomToken() }, userId, CHALLENGE_LIFETIME_MS)).token,
  });
  /** Marks a challenge session answered (kept until it expires); false when it was already. */
  const takeChallenge = async (challengeId: string, expiresAtSeconds: number): Promise<boolean> => {
    try {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.usedChallenge(challengeId), type: 'used_challenge', ttl: expiresAtSeconds },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  };

  /** The login, once the password matches it; IncorrectPasswordError otherwise. */
  const loginWithPassword = async (userId: string, password: string): Promise<LocalLogin> => {
    const stored = await login(userId);
    if (!(await verifyPassword(password, stored?.passwordHash ?? unmatchable)) || !stored) throw new IncorrectPasswordError();
    return stored;
  };
  /**
   * Takes `code` when it is a current code of the user's secret, recording its step so it is never taken again:
   * `used` when that step was taken already. The step only grows (a conditional write), so of two
   * requests racing with one code, one wins.
   */
  const takeCode = async (userId: string, { mfaSecret: sealedSecret, lastMfaStep }: LocalLogin, code: string): Promise<'taken' | 'wrong' | 'used'> => {
    if (!sealedSecret) return 'wrong';
    const step = totpStep(await secretBox.decrypt(sealedSecret, mfaSecretContext(userId)), code, authenticatorClock.now());
    if (step === null) return 'wrong';
    // The step just used is told apart (the app still shows that code); an older step's code is simply no longer good.
    if (lastMfaStep !== undefined && step <= lastMfaStep) return step === lastMfaStep ? 'used' : 'wrong';
    try {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.localLogin(userId),
          UpdateExpression: 'SET lastMfaStep = :step',
          ConditionExpression: 'mfaSecret = :secret AND (attribute_not_exists(lastMfaStep) OR lastMfaStep < :step)',
          ExpressionAttributeValues: { ':step': step, ':secret': sealedSecret },
        }),
      );
      return 'taken';
    } catch (error) {
      // Taken meanwhile by a request racing with the same code; or the app was replaced, and the code is no longer its.
      if (isConditionFailure(error)) return (await login(userId))?.mfaSecret === sealedSecret ? 'used' : 'wrong';
      throw error;
    }
  };

  return {
    async signIn(email, password) {
      const user = await users.getByEmail(normaliseEmail(email));
      const stored = user ? await login(user.id) : undefined;
      // An unknown email costs one scrypt as well: the answer's timing does not tell it apart.
      const matches = await verifyPassword(password, stored?.passwordHash ?? unmatchable);
      if (!user || !stored || !matches) return { kind: 'refused' };
      if (stored.mustChangePassword) return challenge('new_password', user.id);
      if (stored.mfaSecret) return challenge('mfa', user.id);
      return issue(user.id, user.email);
    },
    async challengeUser(challengeSession, purpose) {
      const claims = await verifyJwt(challengeSession);
      return claims?.sub && claims.purpose === purpose ? claims.sub : null;
    },
    async respond(challengeSession, purpose, answer) {
      const claims = await verifyJwt(challengeSession);
      if (!claims?.sub || claims.purpose !== purpose || !claims.jti || !claims.exp) return { kind: 'refused' };
      const user = await users.get(claims.sub);
      if (!user) return { kind: 'refused' };
      if (purpose === 'mfa') {
        const stored = await login(user.id);
        const taken = stored ? await takeCode(user.id, stored, answer) : 'wrong';
        if (taken !== 'taken') return taken === 'used' ? { kind: 'refused', reason: 'code_used' } : { kind: 'refused' };
      }
      // Taken before the password is replaced or a token issued: a replayed session changes nothing.
      if (!(await takeChallenge(claims.jti, claims.exp))) return { kind: 'refused' };
      if (purpose === 'new_password') {
        await savePassword(user.id, await hash(answer));
        // As Cognito: a user with MFA on (a temporary password set again) still answers a code after the new password.
        if ((await login(user.id))?.mfaSecret) return challenge('mfa', user.id);
      }
      return issue(user.id, user.email);
    },
    async createLogin(user) {
      const password = temporaryPassword();
      await newLogin(user.id, await hash(password));
      return { temporaryPassword: password };
    },
    async placeholderLogin() {
      const password = temporaryPassword();
      // The scrypt a real login costs, so the answer takes as long; the hash is kept nowhere: the password opens nothing.
      await hash(password);
      return { temporaryPassword: password };
    },
    async setPassword(userId, password, { temporary = false } = {}) {
      await savePassword(userId, await hash(password), temporary);
    },
    async hasTemporaryPassword(userId) {
      return Boolean((await login(userId))?.mustChangePassword);
    },
    async mfaEnabled(userId) {
      return Boolean((await login(userId))?.mfaSecret);
    },
    async startMfaEnrolment(user: LoginUser, password) {
      const stored = await loginWithPassword(user.id, password);
      if (stored.mfaSecret) throw new MfaAlreadyEnabledError();
      const secret = newTotpSecret();
      return { secret, otpauthUri: totpUri(secret, user.email), enrolmentState: secret };
    },
    async confirmMfaEnrolment(user, secret, code) {
      const step = totpStep(secret, code, authenticatorClock.now());
      if (step === null) throw new IncorrectMfaCodeError();
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.localLogin(user.id),
            UpdateExpression: 'SET mfaSecret = :secret, lastMfaStep = :step',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(mfaSecret)',
            ExpressionAttributeValues: { ':secret': await secretBox.encrypt(secret, mfaSecretContext(user.id)), ':step': step },
          }),
        );
      } catch (error) {
        // Turned on meanwhile (another tab): the first app stays.
        if (isConditionFailure(error)) throw new MfaAlreadyEnabledError();
        throw error;
      }
    },
    async disableMfa(user, password, code) {
      const stored = await loginWithPassword(user.id, password);
      if (!stored.mfaSecret) throw new MfaNotEnabledError();
      const taken = await takeCode(user.id, stored, code);
      if (taken !== 'taken') throw taken === 'used' ? new MfaCodeUsedError() : new IncorrectMfaCodeError();
      await db.send(new UpdateCommand({ TableName: tableName, Key: keys.localLogin(user.id), UpdateExpression: 'REMOVE mfaSecret, lastMfaStep' }));
    },
    // The session the API keeps is what signs out here: the sandbox's tokens have nothing else to revoke.
    signOut: async () => {},
    async removeLogin(userId) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: keys.localLogin(userId) }));
    },
    async verify(token): Promise<TokenClaims | null> {
      const claims = await verifyJwt(token);
      if (!claims?.sub || claims.token_use !== 'id' || typeof claims.email !== 'string' || !claims.exp) return null;
      return { userId: claims.sub, email: claims.email, expiresAt: new Date(claims.exp * 1000).toISOString() };
    },
  };
}

/**
 * The sandbox's directory over its table, with the token key in its key folder (created on first use).
 *
 * @example
 * const directory = sandboxUserDirectory({ db, tableName, keyDir: '.sandbox/keys', clock });
 */
export function sandboxUserDirectory({ db, tableName, keyDir, clock, authenticatorClock, passwordCost }: Pick<LocalUserDirectoryOptions, 'db' | 'tableName' | 'clock' | 'authenticatorClock' | 'passwordCost'> & { keyDir: string }): LocalUserDirectory {
  return createLocalUserDirectory({
    db,
    tableName,
    users: createUserStore(db, tableName),
    signingKey: readOrCreateKeyFile(join(keyDir, 'dashboard-token.key')),
    secretBox: localSecretBox(keyDir),
    clock,
    authenticatorClock,
    passwordCost,
  });
}
