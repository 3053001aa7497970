/**
 * The payments export: the payments list (the same filters) as CSV, one page per request, so that each answer stays
 * far inside API Gateway's 6 MB and 29 s however long the month: the caller asks page after page with the cursor
 * of the last and joins the pages. docs/dashboard.md, "Payments export".
 */
import type { AuthContext } from '../auth/authenticator.ts';
import type { CoreDeps } from '../deps.ts';
import { csvLine, paymentCsvLine, PAYMENTS_CSV_COLUMNS } from '../domain/payments-csv.ts';
import { ValidationError } from '../errors.ts';
import { randomToken } from '../ids.ts';
import { keys } from '../store/keys.ts';
import { batchGetItems } from '../store/query-page.ts';
import { transactionItems } from '../store/transaction-store.ts';
import { paymentsPage, type PaymentListQuery } from './payment-query.ts';
import { decodeCursor, encodeCursor } from './payment-search.ts';


const EXPORT_ID = /^exp_[0-9A-Za-z]{24}$/;

/** The export's cursor: the list's (merchant, mode, position) and the export's id, so every page's audit names it. */
const exportCursor = (owner: { merchantId: string; mode: AuthContext['mode'] }, after: string, exportId: string): string => `${encodeCursor(owner, after)}.${exportId}`;

function readCursor(owner: { merchantId: string; mode: AuthContext['mode'] }, cursor: string): { after: string; exportId: string } {
  const [list = '', exportId = ''] = cursor.split('.');
  if (!EXPORT_ID.test(exportId)) throw new ValidationError('cursor is not one this export answered: start again without it.', 'cursor', 'parameter_invalid');
  return { after: decodeCursor(owner, list), exportId };
}

export interface ExportPage {
  /** exp_...: one export, the same on each of its pages. */
  id: string;
  /** This page's lines; the first page starts with the header line. */
  csv: string;
  rows: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** One page of the export: its rows' transactions read in batches for the bank's reference and the refunds. */
export async function exportPage(deps: CoreDeps, auth: AuthContext, query: PaymentListQuery, page: { cursor?: string; limit: number; now: number }): Promise<ExportPage> {
  const { cursor, limit, now } = page;
  const owner = { merchantId: auth.merchant.id, mode: auth.mode };
  const { after, exportId } = cursor === undefined ? { after: undefined, exportId: `exp_${randomToken()}` } : readCursor(owner, cursor);
  // At most 500 rows (the schema's limit): about 150 KB of CSV, one list Query and at most 5 BatchGetItem calls.
  const rows = await paymentsPage(deps, auth, query, { limit, after, now });
  const references = [...new Set(rows.data.flatMap((row) => (row.transactionReference ? [row.transactionReference] : [])))];
  const items = await batchGetItems(deps.db, deps.config.tableName, references.map((reference) => keys.transaction(reference)));
  const transactions = new Map(items.map((item) => transactionItems.fromItem(item)).map((t) => [t.reference, t]));
  const lines = rows.data.map((row) => paymentCsvLine(row, (row.transactionReference && transactions.get(row.transactionReference)) || null));
  return {
    id: exportId,
    csv: `${cursor === undefined ? csvLine(PAYMENTS_CSV_COLUMNS) : ''}${lines.join('')}`,
    rows: lines.length,
    hasMore: rows.after !== null,
    nextCursor: rows.after === null ? null : exportCursor(owner, rows.after, exportId),
  };
}
