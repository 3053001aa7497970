/**
 * The one-off backfill of the payments list's search entries (shared/store/payment-index.ts) for sessions and
 * server-to-server charges stored before entries existed: one Scan of the table, each payment's entry filled in
 * where it is missing or lacks attributes. Safe to run while the service runs and to run again: it never
 * overwrites an attribute an entry has (a live write, newer than the item scanned, keeps its values).
 */
import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Session } from '../domain/session.ts';
import type { Transaction } from '../domain/transaction.ts';
import { keys } from '../store/keys.ts';
import { backfillEntry } from '../store/payment-index.ts';

export interface BackfillResult {
  /** Payments read (sessions and server-to-server charges). */
  examined: number;
  /** Entries created or completed. */
  written: number;
}

export async function backfillPaymentEntries(db: DynamoDBDocumentClient, tableName: string, { merchantId }: { merchantId?: string } = {}): Promise<BackfillResult> {
  const result: BackfillResult = { examined: 0, written: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName,
        // Sessions, and transactions without a session (a session's attempts are part of its entry).
        FilterExpression: `(begins_with(pk, :session) OR (begins_with(pk, :txn) AND attribute_type(sessionReference, :null)))${merchantId ? ' AND merchantId = :merchant' : ''}`,
        ExpressionAttributeValues: { ':session': 'SESSION#', ':txn': 'TXN#', ':null': 'NULL', ...(merchantId && { ':merchant': merchantId }) },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      result.examined += 1;
      const written = item.pk.startsWith('SESSION#')
        ? await backfillEntry(db, tableName, { kind: 'session', session: item as Session })
        : await backfillEntry(db, tableName, { kind: 'charge', transaction: item as Transaction, customerRef: await customerOf(db, tableName, item as Transaction) });
      if (written) result.written += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return result;
}

/** A server-to-server charge's customer is its stored card's. */
async function customerOf(db: DynamoDBDocumentClient, tableName: string, transaction: Transaction): Promise<string | null> {
  if (!transaction.svcToken) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.card(transaction.svcToken) }));
  return (Item?.customerRef as string | undefined) ?? null;
}
