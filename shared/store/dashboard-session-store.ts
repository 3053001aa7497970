import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys.ts';

/** A signed-in dashboard session as stored; its rules (idle timeout, MFA) are shared/dashboard/dashboard-sessions.ts. */
export interface DashboardSession {
  userId: string;
  /** The sign-in answered an authenticator app's code, or the session enrolled one. */
  mfa: boolean;
  /** Epoch ms of the last call that was recorded. */
  lastSeenAt: number;
  /** Epoch ms the token itself expires (the session item's TTL). */
  expiresAt: number;
}

/** Dashboard sessions (shared/dashboard/dashboard-sessions.ts) by the SHA-256 of their token; each expires with it (TTL). */
export interface DashboardSessionStore {
  start(sessionId: string, session: DashboardSession): Promise<void>;
  get(sessionId: string): Promise<DashboardSession | null>;
  /** Records a call at `now` (only on a session that still exists: a sign-out meanwhile stays signed out). */
  touch(sessionId: string, now: number): Promise<void>;
  /** The session's user has just enrolled an authenticator app: what it needs MFA for is open to it now. */
  markMfa(sessionId: string): Promise<void>;
  end(sessionId: string): Promise<void>;
}

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

export function createDashboardSessionStore(db: DynamoDBDocumentClient, tableName: string): DashboardSessionStore {
  const update = async (sessionId: string, expression: string, values: Record<string, unknown>) => {
    try {
      await db.send(
        new UpdateCommand({ TableName: tableName, Key: keys.dashboardSession(sessionId), UpdateExpression: expression, ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: values }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  };
  return {
    async start(sessionId, session) {
      await db.send(
        new PutCommand({ TableName: tableName, Item: { ...keys.dashboardSession(sessionId), type: 'dashboard_session', ...session, ttl: Math.ceil(session.expiresAt / 1000) } }),
      );
    },
    async get(sessionId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.dashboardSession(sessionId), ConsistentRead: true }));
      return Item ? { userId: Item.userId as string, mfa: Item.mfa === true, lastSeenAt: Item.lastSeenAt as number, expiresAt: Item.expiresAt as number } : null;
    },
    touch: (sessionId, now) => update(sessionId, 'SET lastSeenAt = :now', { ':now': now }),
    markMfa: (sessionId) => update(sessionId, 'SET mfa = :true', { ':true': true }),
    async end(sessionId) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: keys.dashboardSession(sessionId) }));
    },
  };
}
