/**
 * The payments list's search entries: one item per payment (a checkout session with its attempts, or a
 * server-to-server charge), written in the same TransactWriteItems as the session or charge it describes, so the
 * list never misses nor contradicts a write. Keys and reads: docs/data-model.md, "Dashboard payments list".
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { chargeRow, sessionRow, type PaymentRow } from '../domain/payment-row.ts';
import type { Session } from '../domain/session.ts';
import type { Transaction } from '../domain/transaction.ts';
import { ConditionFailedError, conditional } from './conditions.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './session-store.ts';
import { tableDefinition } from './table-definition.ts';

/**
 * The stored fields of a payment: its row (a session's raw status: the one shown depends on the time) and owner;
 * `undefined` leaves an attribute as it is (a settling charge does not know its customer).
 */
type EntryFields = Omit<PaymentRow, 'customerRef'> & { customerRef: string | null | undefined; merchantId: string; mode: Session['mode']; expiresAt?: string };

const sessionFields = (session: Session): EntryFields => ({
  ...sessionRow(session, session.status),
  merchantId: session.merchantId,
  mode: session.mode,
  expiresAt: session.expiresAt,
});

const chargeFields = (transaction: Transaction, customerRef: string | null | undefined): EntryFields => ({
  ...chargeRow(transaction, customerRef ?? null),
  customerRef,
  merchantId: transaction.merchantId,
  mode: transaction.mode,
});

/**
 * One UpdateItem that sets the entry's attributes (or, `fillOnly`, only those it lacks) and its sparse index keys:
 * gsi1 by last four, gsi2 by customerRef, both sorted like the list (`<createdAt>#<reference>`).
 */
function entryUpdate(tableName: string, fields: EntryFields, { fillOnly = false } = {}): NonNullable<TransactItem['Update']> {
  const key = keys.paymentEntry(fields.merchantId, fields.mode, fields.createdAt, fields.reference);
  const { gsi1, gsi2 } = tableDefinition;
  const attributes: Record<string, unknown> = {
    type: 'payment_entry',
    ...fields,
    ...(fields.lastFour && { [gsi1.partitionKey]: keys.paymentsByLastFour(fields.merchantId, fields.mode, fields.lastFour), [gsi1.sortKey]: key.sk }),
    ...(fields.customerRef && { [gsi2.partitionKey]: keys.paymentsByCustomer(fields.merchantId, fields.mode, fields.customerRef), [gsi2.sortKey]: key.sk }),
  };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], i) => {
      names[`#a${i}`] = name;
      values[`:v${i}`] = value;
      return fillOnly ? `#a${i} = if_not_exists(#a${i}, :v${i})` : `#a${i} = :v${i}`;
    });
  return { TableName: tableName, Key: key, UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** The entry of a session as it is after this write (the session's Put or Update goes in the same transaction). */
export const sessionEntryItem = (tableName: string, session: Session): TransactItem => ({ Update: entryUpdate(tableName, sessionFields(session)) });

/**
 * The entry of a server-to-server charge as it is after this write. `customerRef` is its stored card's, known when
 * the charge is created; later writes (settling, refunds) pass none and keep the one stored.
 */
export const chargeEntryItem = (tableName: string, transaction: Transaction, customerRef?: string | null): TransactItem => ({
  Update: entryUpdate(tableName, chargeFields(transaction, customerRef)),
});

/** A payment as stored: a session (its attempts are part of it), or a server-to-server charge with its card's customer. */
export type PaymentSource = { kind: 'session'; session: Session } | { kind: 'charge'; transaction: Transaction; customerRef: string | null };

/**
 * Fills in the entry of a payment stored before entries existed (the backfill): only the attributes the entry lacks,
 * so an entry a live write made meanwhile, newer than the item this read, keeps every value. Returns whether it
 * wrote anything new (false when the entry was already complete).
 */
export async function backfillEntry(db: DynamoDBDocumentClient, tableName: string, source: PaymentSource): Promise<boolean> {
  const fields = source.kind === 'session' ? sessionFields(source.session) : chargeFields(source.transaction, source.customerRef);
  const update = entryUpdate(tableName, fields, { fillOnly: true });
  try {
    // A complete entry already has its customerRef (null or a string): nothing to fill.
    await conditional(() => db.send(new UpdateCommand({ ...update, ConditionExpression: 'attribute_not_exists(customerRef)' })));
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}
