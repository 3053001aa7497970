/**
 * The payments list: one search entry per payment (shared/store/payment-index.ts), newest first. An exact last four
 * or customerRef is the key of a sparse index, so such a search reads only its own payments; the other filters are
 * checked on the entries read, and reading goes on until the page is full. docs/data-model.md, "Dashboard payments list".
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { matchesFilters, rowOfEntry, type PaymentFilters, type PaymentRow } from './payment-row.ts';
import type { Mode } from '../domain/session-state.ts';
import { ValidationError } from '../errors.ts';
import { batchGetItems, itemKeyOf } from '../store/index-queries.ts';
import { keys } from '../store/keys.ts';
import { queryEntries, type EntrySource } from '../store/payment-index.ts';
import { tableDefinition } from '../store/table-definition.ts';

/** Entries one Query reads when filters remain to check on them. */
const QUERY_PAGE = 250;
/** A request stops after examining this many entries (a rare filter over a long history) and answers a shorter page. */
export const EXAMINE_LIMIT = 5_000;

export interface PaymentQuery {
  merchantId: string;
  mode: Mode;
  filters: PaymentFilters;
  /** ISO bounds on createdAt: `from` inclusive, `to` exclusive. */
  from?: string;
  to?: string;
  limit: number;
  /** The sort key of the last entry of the previous page. */
  after?: string;
  now: number;
}

/** The most selective key for the filters: a last four, else a customerRef, else the merchant's whole list. */
function sourceOf(q: PaymentQuery): EntrySource {
  const { gsi1, gsi2 } = tableDefinition;
  if (q.filters.lastFour) return { indexName: gsi1.name, partitionKey: gsi1.partitionKey, sortKey: gsi1.sortKey, partition: keys.paymentsByLastFour(q.merchantId, q.mode, q.filters.lastFour) };
  if (q.filters.customerRef) return { indexName: gsi2.name, partitionKey: gsi2.partitionKey, sortKey: gsi2.sortKey, partition: keys.paymentsByCustomer(q.merchantId, q.mode, q.filters.customerRef) };
  return { partitionKey: tableDefinition.partitionKey, sortKey: tableDefinition.sortKey, partition: keys.paymentsPartition(q.merchantId, q.mode) };
}

/** Whether a filter is left once the source's key has applied its own. */
function filtersLeft(q: PaymentQuery): boolean {
  const { customerRef, lastFour, status, currency, amountMinor } = q.filters;
  return Boolean(status || currency || amountMinor !== undefined || (lastFour && customerRef));
}

/** One page, and the sort key to continue after (null on the last page). */
export async function searchPayments(table: { db: DynamoDBDocumentClient; tableName: string }, q: PaymentQuery): Promise<{ data: PaymentRow[]; after: string | null }> {
  const source = sourceOf(q);
  const upper = q.after !== undefined && (q.to === undefined || q.after < q.to) ? q.after : q.to;
  // Nothing lies below the range (a cursor of an earlier search with a later `from`): DynamoDB refuses such a BETWEEN.
  if (q.from !== undefined && upper !== undefined && upper < q.from) return { data: [], after: null };
  // Without filters left, every entry of the source is a row: read one more than the page to know if there is more.
  const queryLimit = filtersLeft(q) ? QUERY_PAGE : q.limit + 1;
  const found: { row: PaymentRow; sk: string }[] = [];
  let startKey: Record<string, unknown> | undefined;
  let examined = 0;
  let lastExamined: string | undefined;
  do {
    const page = await queryEntries(table.db, table.tableName, source, { from: q.from, upper }, { limit: queryLimit, startKey });
    // An index answers keys; the entry itself is read from the table, so a stale index entry is checked on the current one.
    const entries = source.indexName ? await batchGetItems(table.db, table.tableName, page.items.map(itemKeyOf)) : page.items;
    for (const entry of entries) {
      const sk = entry.sk as string;
      if (sk === q.after) continue;
      examined += 1;
      lastExamined = sk;
      const row = rowOfEntry(entry, q.now);
      if (matchesFilters(row, q.filters)) found.push({ row, sk });
      if (found.length > q.limit) break;
    }
    startKey = page.lastKey;
  } while (startKey && found.length <= q.limit && examined < EXAMINE_LIMIT);

  if (found.length > q.limit) return { data: found.slice(0, q.limit).map((f) => f.row), after: found[q.limit - 1]!.sk };
  // Read to the end: the last page. Stopped at the examination limit: a shorter page that goes on from where it stopped.
  return { data: found.map((f) => f.row), after: startKey ? lastExamined! : null };
}

/** A list position: the sort key of an entry, `<createdAt>#<reference>`. */
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#(cs|txn)_\w{1,80}$/;

/**
 * The opaque cursor: where the list stopped, and for which merchant and mode. It grants nothing: the partition read
 * always comes from the caller's credentials, so a cursor can only name a position in the caller's own list. It is
 * not signed (no key of the service is given to a read-only route); one of another merchant or mode, or that is not
 * a cursor, is refused.
 */
export const encodeCursor = (q: Pick<PaymentQuery, 'merchantId' | 'mode'>, after: string): string =>
  Buffer.from(JSON.stringify({ m: q.merchantId, o: q.mode, a: after })).toString('base64url');

/** The position a cursor names; 400 on any cursor this merchant and mode's list did not answer. */
export function decodeCursor(q: Pick<PaymentQuery, 'merchantId' | 'mode'>, cursor: string): string {
  const value = parseJson(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!value || value.m !== q.merchantId || value.o !== q.mode || typeof value.a !== 'string' || !POSITION.test(value.a)) {
    throw new ValidationError('cursor is not one this list answered for this merchant and mode: start again without it.', 'cursor', 'parameter_invalid');
  }
  return value.a;
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
