import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../domain/audit-entry.ts';
import { keys } from './keys.ts';
import { queryPage } from './query-page.ts';
import type { TransactItem } from './session-store.ts';

/**
 * The audit log of changes made from the dashboard: one partition per merchant, sorted by time, read newest first.
 * An entry is usually written in the transaction of its change (entryPut); record() is for changes that are not one
 * DynamoDB transaction of ours.
 */
export interface AuditStore {
  /** The Put of an entry, to add to the change's transaction. */
  entryPut(entry: AuditEntry): TransactItem;
  /** Writes an entry on its own, right after a change made elsewhere. */
  record(entry: AuditEntry): Promise<void>;
  /** Newest first; `cursor` is the previous page's nextCursor. */
  list(merchantId: string, options: { limit: number; cursor?: string }): Promise<{ entries: AuditEntry[]; nextCursor: string | null }>;
}

const toEntry = (item: Record<string, unknown>): AuditEntry => ({
  id: item.id as string,
  merchantId: item.merchantId as string,
  at: item.at as string,
  userId: item.userId as string,
  email: item.email as string,
  action: item.action as AuditEntry['action'],
  target: item.target as string,
  detail: (item.detail ?? {}) as Record<string, unknown>,
});

export function createAuditStore(db: DynamoDBDocumentClient, tableName: string): AuditStore {
  const item = (entry: AuditEntry) => ({ ...keys.auditEntry(entry.merchantId, entry.at, entry.id), type: 'audit_entry', ...entry });
  return {
    entryPut: (entry) => ({ Put: { TableName: tableName, Item: item(entry) } }),
    async record(entry) {
      await db.send(new PutCommand({ TableName: tableName, Item: item(entry) }));
    },
    async list(merchantId, { limit, cursor }) {
      const partition = keys.auditPartition(merchantId);
      const page = await queryPage(db, tableName, { partition, newestFirst: true, pageSize: limit, cursor: cursor ? { pk: partition, sk: cursor } : undefined });
      return { entries: page.items.map(toEntry), nextCursor: page.nextCursor ? (page.nextCursor.sk as string) : null };
    },
  };
}
