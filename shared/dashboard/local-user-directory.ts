/**
 * The sandbox's user directory, behind the same port as Cognito: scrypt password hashes in the table and JWTs
 * (HS256) signed with a key from the sandbox's key folder. A temporary password must be changed at first sign-in,
 * as Cognito asks (the `new_password` challenge).
 */
import { GetCommand, PutCommand, DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../clock.ts';
import { randomToken } from '../ids.ts';
import { keys } from '../store/keys.ts';
import { createUserStore, type UserStore } from '../store/user-store.ts';
import { readOrCreateKeyFile } from '../crypto/local-key-file.ts';
import { join } from 'node:path';
import { normaliseEmail } from './dashboard-user.ts';
import { hashPassword, UNMATCHABLE_HASH, verifyPassword } from './password-hash.ts';
import type { SignInResult, TokenClaims, UserDirectory } from './user-directory.ts';

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
  clock: Clock;
}

/** A temporary password that meets the policy: shown once, changed at first sign-in. */
const temporaryPassword = (): string => `${randomToken(16)}-Aa1`;

/** The sandbox's directory can also set a permanent password: the seeded admin's, which `npm start` prints. */
export interface LocalUserDirectory extends UserDirectory {
  setPassword(userId: string, password: string): Promise<void>;
}

export function createLocalUserDirectory({ db, tableName, users, signingKey, clock }: LocalUserDirectoryOptions): LocalUserDirectory {
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
    return Item as { passwordHash: string; mustChangePassword: boolean } | undefined;
  };
  const saveLogin = (userId: string, passwordHash: string, mustChangePassword: boolean) =>
    db.send(new PutCommand({ TableName: tableName, Item: { ...keys.localLogin(userId), type: 'local_login', passwordHash, mustChangePassword } }));
  const issue = async (userId: string, email: string): Promise<SignInResult> => ({ kind: 'token', userId, ...(await sign({ email, token_use: 'id' }, userId, TOKEN_LIFETIME_MS)) });

  return {
    async signIn(email, password) {
      const user = await users.getByEmail(normaliseEmail(email));
      const stored = user ? await login(user.id) : undefined;
      // An unknown email costs one scrypt as well: the answer's timing does not tell it apart.
      const matches = await verifyPassword(password, stored?.passwordHash ?? UNMATCHABLE_HASH);
      if (!user || !stored || !matches) return { kind: 'refused' };
      if (stored.mustChangePassword) {
        const { token } = await sign({ purpose: 'new_password' }, user.id, CHALLENGE_LIFETIME_MS);
        return { kind: 'challenge', challenge: 'new_password', challengeSession: token };
      }
      return issue(user.id, user.email);
    },
    async respond(challengeSession, answer) {
      const claims = await verifyJwt(challengeSession);
      if (!claims?.sub || claims.purpose !== 'new_password') return { kind: 'refused' };
      const user = await users.get(claims.sub);
      if (!user) return { kind: 'refused' };
      await saveLogin(user.id, await hashPassword(answer), false);
      return issue(user.id, user.email);
    },
    async createLogin(user) {
      const password = temporaryPassword();
      await saveLogin(user.id, await hashPassword(password), true);
      return { temporaryPassword: password };
    },
    async setPassword(userId, password) {
      await saveLogin(userId, await hashPassword(password), false);
    },
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
export function sandboxUserDirectory({ db, tableName, keyDir, clock }: { db: DynamoDBDocumentClient; tableName: string; keyDir: string; clock: Clock }): LocalUserDirectory {
  return createLocalUserDirectory({ db, tableName, users: createUserStore(db, tableName), signingKey: readOrCreateKeyFile(join(keyDir, 'dashboard-token.key')), clock });
}
