import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EventEnvelope } from '../domain/events.ts';
import type { Session } from '../domain/session.ts';
import { effectiveState, type ClosedReason, type Mode, type SessionStatus } from '../domain/session-state.ts';
import { conditional, itemDoesNotExist } from './conditions.ts';
import { itemMapper } from './item-mapper.ts';
import { keys } from './keys.ts';
import { outboxPut } from './outbox.ts';
import { sessionEntryItem } from './payment-index.ts';
import { itemsOf, queryAll } from './query-page.ts';

/** An item of a TransactWriteItems call that another module adds to ours (idempotency result, outbox event). */
export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export interface SessionListQuery {
  page: number;
  pageSize: number;
  status?: SessionStatus;
  now: number;
}

/** Sessions of the single table; see docs/data-model.md for the keys and the list's cost. */
export interface SessionStore {
  create(session: Session, alsoWrite?: TransactItem[]): Promise<void>;
  get(reference: string): Promise<Session | null>;
  /** Closes an open session if nobody changed it since it was read; writes session.expired in the same transaction. */
  close(session: Session, reason: ClosedReason, closedAt: string, event: EventEnvelope): Promise<Session>;
  list(merchantId: string, mode: Mode, query: SessionListQuery): Promise<{ items: Session[]; total: number }>;
}

/** A session's item: its key and its entry in the merchant's list (gsi1). */
export const sessionItems = itemMapper({
  type: 'session',
  keys: (s: Session) => ({ ...keys.session(s.reference), ...keys.merchantSessions(s.merchantId, s.mode, s.createdAt, s.reference) }),
});

export function createSessionStore(db: DynamoDBDocumentClient, tableName: string): SessionStore {
  return {
    async create(session, alsoWrite = []) {
      const put = { TableName: tableName, Item: sessionItems.toItem(session), ConditionExpression: itemDoesNotExist };
      // The payments list's entry is written with the session, so the list shows it as soon as it exists. A caller
      // tells its own items apart by name (named()), wherever they stand.
      const items = [{ Put: put }, ...alsoWrite, sessionEntryItem(tableName, session)];
      await conditional(() => db.send(new TransactWriteCommand({ TransactItems: items })), items);
    },

    async get(reference) {
      // Strongly consistent: a merchant reads back what it just created, and decisions start from the latest version.
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.session(reference), ConsistentRead: true }));
      return Item ? sessionItems.fromItem(Item) : null;
    },

    async close(session, reason, closedAt, event) {
      const closed: Session = { ...session, status: 'expired', closedReason: reason, closedAt, version: session.version + 1 };
      await conditional(() =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: keys.session(session.reference),
                  UpdateExpression: 'SET #status = :expired, closedReason = :reason, closedAt = :at, version = :next',
                  ConditionExpression: 'version = :version',
                  ExpressionAttributeNames: { '#status': 'status' },
                  ExpressionAttributeValues: {
                    ':expired': 'expired',
                    ':reason': reason,
                    ':at': closedAt,
                    ':version': session.version,
                    ':next': closed.version,
                  },
                },
              },
              outboxPut(tableName, session.merchantId, event),
              sessionEntryItem(tableName, closed),
            ],
          }),
        ),
      );
      return closed;
    },

    async list(merchantId, mode, query) {
      // One pass over the compact index (keys, status, expiresAt), newest first; the status shown depends on
      // the time, so the filter and the exact total are computed here, then only the page's items are fetched.
      // Without a filter the keys are all it needs of each entry.
      const attributes = query.status ? ['pk', 'sk', 'status', 'expiresAt'] : ['pk', 'sk'];
      const partition = keys.merchantSessionsPartition(merchantId, mode);
      const matching = await queryAll(db, tableName, { index: 'gsi1', partition, newestFirst: true, attributes }, (entry) => {
        if (!query.status) return true;
        const shown = effectiveState(
          {
            status: entry.status as SessionStatus,
            closedReason: null,
            expiresAt: Date.parse(entry.expiresAt as string),
            maxFailures: null,
            failureCount: 0,
            mode,
          },
          query.now,
        );
        return shown.status === query.status;
      });

      const pageEntries = matching.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
      if (pageEntries.length === 0) return { items: [], total: matching.length };
      const items = await itemsOf(db, tableName, pageEntries);
      return { items: items.map(sessionItems.fromItem), total: matching.length };
    },
  };
}
