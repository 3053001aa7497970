/**
 * The payments export's CSV (RFC 4180): one line per payment of the list, for the merchant's accountant to reconcile
 * against the bank statement. Safe for spreadsheets: a cell that a spreadsheet would read as a formula (starting with
 * = + - @, a tab or a carriage return) is neutralised with a leading apostrophe, as OWASP advises against CSV
 * injection. Pure: no I/O. docs/dashboard.md, "Payments export".
 */
import type { PaymentRow } from './payment-row.ts';
import type { Transaction } from './transaction.ts';

/** Venezuela's one time zone (UTC-4 all year since 2016). */
const CARACAS = 'America/Caracas';

export const PAYMENTS_CSV_COLUMNS = [
  'created_at_caracas',
  'created_at_utc',
  'amount_minor',
  'amount',
  'currency',
  'status',
  'method',
  'card_brand',
  'card_last4',
  'network',
  'bank_reference',
  'reference',
  'session_reference',
  'transaction_reference',
  'customer_ref',
  'refunded_minor',
  'refunded',
  'refunded_externally_minor',
] as const;

/** What the export reads of a row's transaction (the approved, or latest, attempt). */
export type ExportedTransaction = Pick<Transaction, 'reference' | 'gateway' | 'processorReference' | 'amountRefundedMinor' | 'amountRefundedExternallyMinor'>;

/** A cell as RFC 4180 writes it, a formula-looking text neutralised first. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | null)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** Minor units as a plain decimal with a point (both currencies have two decimals): 125050 is 1250.50. */
export const decimalAmount = (minor: number): string => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** `2026-03-10 08:00:00 -04:00`: the wall time in Caracas, with its offset, so a spreadsheet and a person both read it. */
export function caracasTime(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: CARACAS, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offset = Math.round((wall - Math.floor(Date.parse(iso) / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const hhmm = `${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${sign}${hhmm}`;
}

/** One payment's line; `transaction` is its row's transaction when it has one. */
export function paymentCsvLine(row: PaymentRow, transaction: ExportedTransaction | null): string {
  const refunded = transaction?.amountRefundedMinor ?? 0;
  return csvLine([
    caracasTime(row.createdAt),
    row.createdAt,
    row.amountMinor,
    decimalAmount(row.amountMinor),
    row.currency,
    row.status,
    // Every payment of the service is a card payment; the column leaves room for others (pago móvil).
    row.lastFour ? 'card' : null,
    row.brand,
    row.lastFour,
    transaction?.gateway ?? null,
    transaction?.processorReference ?? null,
    row.reference,
    row.sessionReference,
    row.transactionReference,
    row.customerRef,
    refunded,
    decimalAmount(refunded),
    transaction?.amountRefundedExternallyMinor ?? 0,
  ]);
}
