/**
 * The payments list: the merchant's sessions index and transactions index (gsi1, newest first) read side by side and
 * merged by creation time. Each request examines at most EXAMINE_PER_STREAM entries of each index, so a page costs a
 * bounded number of reads however many payments there are; a filter that matches rarely answers a short (even
 * empty) page with `hasMore` and a cursor to go on from. docs/data-model.md, "Payments list".
 */
import type { Deps } from '../../shared/deps.ts';
import { matchesFilters, chargeRow, sessionRow, type PaymentFilters, type PaymentRow } from '../../shared/dashboard/payment-row.ts';
import { toSessionResource } from '../../shared/domain/session.ts';
import type { Mode } from '../../shared/domain/session-state.ts';
import { queryIndexPage, type SortKeyCondition } from '../../shared/store/index-queries.ts';
import { keys } from '../../shared/store/keys.ts';

const EXAMINE_PER_STREAM = 100;

/** Where each index was left: the gsi1sk of its last examined entry, or null once it is read to its end. */
export interface PaymentCursor {
  sessions?: string | null;
  transactions?: string | null;
}

export const encodeCursor = (cursor: PaymentCursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');
export function decodeCursor(raw: string | undefined): PaymentCursor | null {
  if (!raw) return {};
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as PaymentCursor;
    const ok = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.length < 200);
    return typeof value === 'object' && value && ok(value.sessions) && ok(value.transactions) ? value : null;
  } catch {
    return null;
  }
}

interface Query {
  merchantId: string;
  mode: Mode;
  filters: PaymentFilters;
  /** ISO bounds on createdAt; `to` exclusive. */
  from?: string;
  to?: string;
  limit: number;
  cursor: PaymentCursor;
  now: number;
}

function range(query: Query, after: string | undefined): SortKeyCondition | undefined {
  // gsi1sk is `<createdAt>#<reference>`: '#' sorts below every reference character, '~' above.
  const upper = after ?? (query.to ? `${query.to}#` : undefined);
  if (query.from && upper) return { between: [query.from, upper] };
  if (query.from) return { atLeast: query.from };
  return upper ? { below: upper } : undefined;
}

type Examined = { sk: string; stream: 'sessions' | 'transactions'; reference: string };

async function examine(deps: Deps, query: Query, stream: 'sessions' | 'transactions'): Promise<{ entries: Examined[]; exhausted: boolean }> {
  const position = query.cursor[stream];
  if (position === null) return { entries: [], exhausted: true };
  const partition = stream === 'sessions' ? keys.merchantSessionsPartition(query.merchantId, query.mode) : keys.merchantTransactionsPartition(query.merchantId, query.mode);
  const { entries, lastKey } = await queryIndexPage(deps.db, deps.config.tableName, {
    partition,
    newestFirst: true,
    sortKey: range(query, position),
    pageSize: EXAMINE_PER_STREAM,
    attributes: ['gsi1sk'],
  });
  const examined = entries.map((e) => {
    const sk = e.gsi1sk as string;
    return { sk, stream, reference: sk.slice(sk.lastIndexOf('#') + 1) };
  });
  return { entries: examined, exhausted: !lastKey };
}

async function rowOf(deps: Deps, entry: Examined, now: number): Promise<PaymentRow | null> {
  if (entry.stream === 'sessions') {
    const session = await deps.sessions.get(entry.reference);
    return session ? sessionRow(session, toSessionResource(session, now, deps.config.checkoutBaseUrl).status) : null;
  }
  const transaction = await deps.transactions.get(entry.reference);
  // A session's attempts are listed under their session.
  if (!transaction || transaction.sessionReference) return null;
  const card = transaction.svcToken ? await deps.cards.get(transaction.svcToken) : null;
  return chargeRow(transaction, card?.customerRef ?? null);
}

/** One page of the list. */
export async function searchPayments(deps: Deps, query: Query): Promise<{ data: PaymentRow[]; nextCursor: PaymentCursor | null }> {
  const streams = { sessions: await examine(deps, query, 'sessions'), transactions: await examine(deps, query, 'transactions') };
  // An entry may be shown once no unread entry of either index can be newer: at or above each open index's last one.
  const frontiers = Object.values(streams).filter((s) => !s.exhausted && s.entries.length > 0).map((s) => s.entries.at(-1)!.sk.split('#')[0]!);
  const boundary = frontiers.reduce((a, b) => (a > b ? a : b), '');
  const candidates = [...streams.sessions.entries, ...streams.transactions.entries].filter((e) => e.sk.split('#')[0]! >= boundary).sort((a, b) => (a.sk < b.sk ? 1 : -1));
  const rows = await Promise.all(candidates.map((entry) => rowOf(deps, entry, query.now)));
  const data: PaymentRow[] = [];
  const consumed = { sessions: 0, transactions: 0 };
  const position: PaymentCursor = { ...query.cursor };
  for (const [i, entry] of candidates.entries()) {
    if (data.length === query.limit) break;
    const row = rows[i];
    if (row && matchesFilters(row, query.filters)) data.push(row);
    position[entry.stream] = entry.sk;
    consumed[entry.stream] += 1;
  }
  for (const stream of ['sessions', 'transactions'] as const) {
    if (streams[stream].exhausted && consumed[stream] === streams[stream].entries.length) position[stream] = null;
  }
  return { data, nextCursor: position.sessions === null && position.transactions === null ? null : position };
}
