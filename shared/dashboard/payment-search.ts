/**
 * The payments list: one search entry per payment (shared/store/payment-index.ts), newest first. An exact last four
 * or customerRef is the key of a sparse index, so such a search reads only its own payments; the other filters are
 * checked on the entries read, and reading goes on until the page is full. docs/data-model.md, "Dashboard payments list".
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { matchesFilters, rowOfEntry, type PaymentFilters, type PaymentRow } from '../domain/payment-row.ts';
import type { Mode } from '../domain/session-state.ts';
import { ValidationError } from '../errors.ts';
import { keys } from '../store/keys.ts';
import { itemsOf, queryPage, sortKeyWithin, type Cursor, type PageQuery } from '../store/query-page.ts';

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

/**
 * The most selective key for the filters: a last four, else a customerRef, else the merchant's whole list. The table
 * is read strongly consistent (a write is listed at once); an index answers keys, which are read from the table.
 */
function sourceOf(q: PaymentQuery): Pick<PageQuery, 'index' | 'partition' | 'attributes' | 'consistent'> {
  if (q.filters.lastFour) return { index: 'gsi1', partition: keys.paymentsByLastFour(q.merchantId, q.mode, q.filters.lastFour), attributes: ['pk', 'sk'] };
  if (q.filters.customerRef) return { index: 'gsi2', partition: keys.paymentsByCustomer(q.merchantId, q.mode, q.filters.customerRef), attributes: ['pk', 'sk'] };
  return { partition: keys.paymentsPartition(q.merchantId, q.mode), consistent: true };
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
  let cursor: Cursor | undefined;
  let examined = 0;
  let lastExamined: string | undefined;
  do {
    // BETWEEN includes `upper`: only a cursor's position can be equal to it, and it is skipped below.
    const page = await queryPage(table.db, table.tableName, { ...source, sortKey: sortKeyWithin(q.from, upper), newestFirst: true, pageSize: queryLimit, cursor });
    // An index answers keys; the entry itself is read from the table, so a stale index entry is checked on the current one.
    const entries = source.index ? await itemsOf(table.db, table.tableName, page.items) : page.items;
    for (const entry of entries) {
      const sk = entry.sk as string;
      if (sk === q.after) continue;
      examined += 1;
      lastExamined = sk;
      const row = rowOfEntry(entry, q.now);
      if (matchesFilters(row, q.filters)) found.push({ row, sk });
      if (found.length > q.limit) break;
    }
    cursor = page.nextCursor;
  } while (cursor && found.length <= q.limit && examined < EXAMINE_LIMIT);

  if (found.length > q.limit) return { data: found.slice(0, q.limit).map((f) => f.row), after: found[q.limit - 1]!.sk };
  // Read to the end: the last page. Stopped at the examination limit: a shorter page that goes on from where it stopped.
  return { data: found.map((f) => f.row), after: cursor ? lastExamined! : null };
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
