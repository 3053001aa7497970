import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import type { Role } from '../domain/roles.ts';
import { attemptsLeft, LOCKOUT_WINDOW_MS, lockoutWindow, type RecentFailures } from '../domain/sign-in-lockout.ts';
import { conditional, itemDoesNotExist, itemExists } from './conditions.ts';
import { keys } from './keys.ts';
import { itemsOf, queryAll } from './query-page.ts';
import type { TransactItem } from './session-store.ts';

/**
 * Dashboard users of every merchant, and the sign-in failure counts. Each change takes `alsoWrite` items (the audit
 * entry) written in the same transaction.
 */
export interface UserStore {
  get(userId: string): Promise<DashboardUser | null>;
  getByEmail(email: string): Promise<DashboardUser | null>;
  /** Oldest first. */
  listForMerchant(merchantId: string): Promise<DashboardUser[]>;
  /**
   * ConditionFailedError when the email already has an account (of any merchant) or the id is taken. `claimEmail:
   * false` stores the user without taking the email (it stays another account's): a user that can never sign in.
   */
  create(user: DashboardUser, alsoWrite?: TransactItem[], options?: { claimEmail?: boolean }): Promise<void>;
  /** ConditionFailedError when there is no such user. */
  updateRole(userId: string, role: Role, alsoWrite?: TransactItem[]): Promise<DashboardUser>;
  /** Removes the user and frees the email when it is theirs; ConditionFailedError when there is no such user. */
  remove(user: DashboardUser, alsoWrite?: TransactItem[]): Promise<void>;
  /** A transaction item that holds only while the user is still an admin: a change's guard, checked at its commit. */
  stillAdmin(userId: string): TransactItem;
  /**
   * Counts one more attempt of this email before its password or code is checked, in one conditional write that
   * refuses past the limit: null when counted, else the counts that lock the email (parallel attempts cannot all pass).
   */
  reserveSignInAttempt(email: string, now: number): Promise<RecentFailures | null>;
  /** Gives back an attempt reserved at `now` that was not a failure (a right password, a fault of ours). */
  releaseSignInAttempt(email: string, now: number): Promise<void>;
  /** A successful sign-in forgets the failures of both windows. */
  clearSignInFailures(email: string, now: number): Promise<void>;
}

const toUser = (item: Record<string, unknown>): DashboardUser => ({
  id: item.id as string,
  email: item.email as string,
  role: item.role as Role,
  merchantId: item.merchantId as string,
  createdAt: item.createdAt as string,
});

/** The email is not stored in the failure count's key in clear: the count outlives no account, but keys show in metrics. */
const emailHash = (email: string): string => createHash('sha256').update(email).digest('hex');

export function createUserStore(db: DynamoDBDocumentClient, tableName: string): UserStore {
  const failuresKey = (email: string, now: number) => keys.signInFailures(emailHash(email), lockoutWindow(now));
  const failuresIn = async (key: Record<string, string>): Promise<number> => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    return (Item?.failures as number | undefined) ?? 0;
  };
  const store: UserStore = {
    async get(userId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.user(userId), ConsistentRead: true }));
      return Item ? toUser(Item) : null;
    },
    async getByEmail(email) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.userEmail(email) }));
      return Item ? store.get(Item.userId as string) : null;
    },
    async listForMerchant(merchantId) {
      const entries = await queryAll(db, tableName, { index: 'gsi1', partition: keys.merchantUsers(merchantId, '', '').gsi1pk, newestFirst: false });
      return (await itemsOf(db, tableName, entries)).map(toUser);
    },
    async create(user, alsoWrite = [], { claimEmail = true } = {}) {
      await conditional(() =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...keys.user(user.id), ...keys.merchantUsers(user.merchantId, user.createdAt, user.id), type: 'user', ...user },
                  ConditionExpression: itemDoesNotExist,
                },
              },
              ...(claimEmail ? [{ Put: { TableName: tableName, Item: { ...keys.userEmail(user.email), type: 'user_email', userId: user.id }, ConditionExpression: itemDoesNotExist } }] : []),
              ...alsoWrite,
            ],
          }),
        ),
      );
    },
    async updateRole(userId, role, alsoWrite = []) {
      const update = {
        TableName: tableName,
        Key: keys.user(userId),
        UpdateExpression: 'SET #role = :role',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role },
        ConditionExpression: itemExists,
      };
      await conditional(() => db.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...alsoWrite] })));
      const user = await store.get(userId);
      return user!;
    },
    async remove(user, alsoWrite = []) {
      // An email the user never took (shared/dashboard/user-admin.ts) stays with the account that has it.
      const { Item: emailEntry } = await db.send(new GetCommand({ TableName: tableName, Key: keys.userEmail(user.email), ConsistentRead: true }));
      const ownsEmail = emailEntry?.userId === user.id;
      await conditional(() =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Delete: { TableName: tableName, Key: keys.user(user.id), ConditionExpression: itemExists } },
              ...(ownsEmail ? [{ Delete: { TableName: tableName, Key: keys.userEmail(user.email) } }] : []),
              ...alsoWrite,
            ],
          }),
        ),
      );
    },
    stillAdmin(userId) {
      return {
        ConditionCheck: {
          TableName: tableName,
          Key: keys.user(userId),
          ConditionExpression: '#role = :admin',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':admin': 'admin' },
        },
      };
    },
    async reserveSignInAttempt(email, now) {
      // The previous window no longer grows: what it holds leaves this window room for the rest of the limit.
      const previous = await failuresIn(failuresKey(email, now - LOCKOUT_WINDOW_MS));
      const room = attemptsLeft(previous);
      if (room > 0) {
        try {
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: failuresKey(email, now),
              UpdateExpression: 'ADD failures :one SET #type = :type, #ttl = :ttl',
              ConditionExpression: 'attribute_not_exists(failures) OR failures < :room',
              ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
              ExpressionAttributeValues: { ':one': 1, ':room': room, ':type': 'sign_in_failures', ':ttl': Math.ceil((now + 2 * LOCKOUT_WINDOW_MS) / 1000) },
            }),
          );
          return null;
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        }
      }
      return { current: await failuresIn(failuresKey(email, now)), previous };
    },
    async releaseSignInAttempt(email, now) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: failuresKey(email, now),
            UpdateExpression: 'ADD failures :minusOne',
            ConditionExpression: 'failures > :zero',
            ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
          }),
        );
      } catch (error) {
        // Cleared meanwhile (a success): nothing left to give back.
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
    async clearSignInFailures(email, now) {
      await Promise.all([now, now - LOCKOUT_WINDOW_MS].map((at) => db.send(new DeleteCommand({ TableName: tableName, Key: failuresKey(email, at) }))));
    },
  };
  return store;
}
