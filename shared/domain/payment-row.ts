/**
 * One line of the dashboard's payments list: a checkout session (with its latest attempt's card) or a
 * server-to-server charge. Pure: no I/O.
 */
import type { Session } from './session.ts';
import type { Transaction } from './transaction.ts';
import { effectiveState, type SessionStatus } from './session-state.ts';

export interface PaymentRow {
  kind: 'session' | 'charge';
  reference: string;
  sessionReference: string | null;
  transactionReference: string | null;
  customerRef: string | null;
  lastFour: string | null;
  brand: string | null;
  amountMinor: number;
  currency: string;
  status: string;
  test: boolean;
  createdAt: string;
}

export interface PaymentFilters {
  /** A customerRef (references are looked up directly, not filtered). */
  customerRef?: string;
  lastFour?: string;
  /** The status as shown (an open session past its expiry is expired). */
  status?: string;
  currency?: string;
  amountMinor?: number;
}

/** A session's row; `status` is the session's status as the API shows it (an expired-but-unclosed one is expired). */
export function sessionRow(session: Session, status: string): PaymentRow {
  const last = session.lastTransaction as { reference: string; card?: { brand: string; lastFour: string } | null } | null;
  return {
    kind: 'session',
    reference: session.reference,
    sessionReference: session.reference,
    transactionReference: last?.reference ?? null,
    customerRef: session.customerRef,
    lastFour: last?.card?.lastFour ?? null,
    brand: last?.card?.brand ?? null,
    amountMinor: session.amountMinor,
    currency: session.currency,
    status,
    test: session.mode === 'test',
    createdAt: session.createdAt,
  };
}

/** A server-to-server charge's row; its customer is the stored card's. */
export function chargeRow(transaction: Transaction, customerRef: string | null): PaymentRow {
  return {
    kind: 'charge',
    reference: transaction.reference,
    sessionReference: null,
    transactionReference: transaction.reference,
    customerRef,
    lastFour: transaction.card?.lastFour ?? null,
    brand: transaction.card?.brand ?? null,
    amountMinor: transaction.amountMinor,
    currency: transaction.currency,
    status: transaction.status,
    test: transaction.mode === 'test',
    createdAt: transaction.createdAt,
  };
}

/** Whether the row passes every filter given. */
export const matchesFilters = (row: PaymentRow, f: PaymentFilters): boolean =>
  (!f.customerRef || row.customerRef === f.customerRef) &&
  (!f.lastFour || row.lastFour === f.lastFour) &&
  (!f.status || row.status === f.status) &&
  (!f.currency || row.currency === f.currency) &&
  (f.amountMinor === undefined || row.amountMinor === f.amountMinor);

/** What a stored search entry holds of its row. */
const ROW_FIELDS = ['kind', 'reference', 'sessionReference', 'transactionReference', 'customerRef', 'lastFour', 'brand', 'amountMinor', 'currency', 'status', 'test', 'createdAt'] as const satisfies readonly (keyof PaymentRow)[];

/**
 * The row of a stored search entry (shared/store/payment-index.ts) at `now`: a session's status is the one the API
 * shows, so an open session past `expiresAt` is expired before any job has written it.
 */
export function rowOfEntry(entry: Record<string, unknown>, now: number): PaymentRow {
  const row = Object.fromEntries(ROW_FIELDS.map((field) => [field, entry[field] ?? null])) as unknown as PaymentRow;
  if (row.kind !== 'session') return row;
  const shown = effectiveState(
    { status: row.status as SessionStatus, closedReason: null, expiresAt: Date.parse(entry.expiresAt as string), maxFailures: null, failureCount: 0, mode: row.test ? 'test' : 'live' },
    now,
  );
  return { ...row, status: shown.status };
}

