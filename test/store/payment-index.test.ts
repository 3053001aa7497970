import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { searchPayments, type PaymentQuery } from '../../shared/dashboard/payment-search.ts';
import { backfillPaymentEntries } from '../../shared/admin/payment-entries-backfill.ts';
import { matchesFilters, type PaymentRow } from '../../shared/domain/payment-row.ts';
import type { Session } from '../../shared/domain/session.ts';
import type { Mode } from '../../shared/domain/session-state.ts';
import type { Transaction } from '../../shared/domain/transaction.ts';
import { keys } from '../../shared/store/keys.ts';
import { chargeEntryItem, sessionEntryItem } from '../../shared/store/payment-index.ts';
import type { TransactItem } from '../../shared/store/session-store.ts';
import { runAdminCli } from '../support/admin-cli.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const db = testDb();
const { tableName } = testConnection();
const table = { db, tableName };
afterAll(() => db.destroy());

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
// Before every session's expiresAt, so a session's status is shown as stored.
const NOW = BASE;
const iso = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();
let merchants = 0;
const newMerchantId = () => `mer_pidx${process.pid}x${Date.now()}x${++merchants}`;

interface Made {
  kind: 'session' | 'charge';
  mode: Mode;
  second: number;
  customerRef: string | null;
  lastFour: string | null;
  amountMinor: number;
  currency: 'VES' | 'USD';
  status: string;
}

const session = (merchantId: string, reference: string, m: Omit<Made, 'kind'>) =>
  ({
    reference,
    merchantId,
    mode: m.mode,
    status: m.status,
    closedReason: null,
    customerRef: m.customerRef,
    amountMinor: m.amountMinor,
    currency: m.currency,
    createdAt: iso(m.second),
    expiresAt: iso(m.second + 3600),
    lastTransaction: m.lastFour ? { reference: `txn_of_${reference}`, card: { brand: 'visa', lastFour: m.lastFour } } : null,
    version: 1,
  }) as unknown as Session;

const charge = (merchantId: string, reference: string, m: Omit<Made, 'kind'>) =>
  ({
    reference,
    merchantId,
    mode: m.mode,
    sessionReference: null,
    status: m.status,
    amountMinor: m.amountMinor,
    currency: m.currency,
    card: m.lastFour ? { brand: 'visa', lastFour: m.lastFour } : null,
    createdAt: iso(m.second),
    trace: [],
  }) as unknown as Transaction;

const write = (item: TransactItem) => db.send(new UpdateCommand(item.Update as ConstructorParameters<typeof UpdateCommand>[0]));

/** Every page of a search, as the list's cursor would walk them. */
async function walk(q: Omit<PaymentQuery, 'after'>): Promise<{ rows: PaymentRow[]; sizes: number[] }> {
  const rows: PaymentRow[] = [];
  const sizes: number[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await searchPayments(table, { ...q, after });
    rows.push(...page.data);
    sizes.push(page.data.length);
    if (page.after === null) return { rows, sizes };
    after = page.after;
  }
}

const made = fc.record({
  kind: fc.constantFrom('session' as const, 'charge' as const),
  mode: fc.constantFrom('test' as const, 'live' as const),
  second: fc.integer({ min: 0, max: 20 }),
  customerRef: fc.constantFrom(null, 'c1', 'c2'),
  lastFour: fc.constantFrom(null, '0002', '4242'),
  amountMinor: fc.constantFrom(100, 250),
  currency: fc.constantFrom('VES' as const, 'USD' as const),
  status: fc.constantFrom('created', 'completed', 'approved', 'declined'),
});

/** A filter left out three times in four, so searches often match enough payments to need several pages. */
const maybe = <T,>(arb: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });

const search = fc.record({
  mode: fc.constantFrom('test' as const, 'live' as const),
  customerRef: maybe(fc.constantFrom('c1', 'c2')),
  lastFour: maybe(fc.constantFrom('0002', '4242')),
  amountMinor: maybe(fc.constantFrom(100, 250)),
  currency: maybe(fc.constantFrom('VES', 'USD')),
  status: maybe(fc.constantFrom('created', 'completed', 'approved', 'declined')),
  from: maybe(fc.integer({ min: 0, max: 20 })),
  to: maybe(fc.integer({ min: 0, max: 21 })),
  limit: fc.integer({ min: 1, max: 4 }),
});

describe('payment search entries', () => {
  it('page by page, answer exactly the rows a filter over every payment gives, newest first, every page but the last full', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(made, { maxLength: 40 }), search, async (payments, s) => {
        const merchantId = newMerchantId();
        const all: { row: PaymentRow; sk: string; mode: Mode }[] = [];
        for (const [i, p] of payments.entries()) {
          const reference = `${p.kind === 'session' ? 'cs' : 'txn'}_p${String(i).padStart(3, '0')}`;
          await write(p.kind === 'session' ? sessionEntryItem(tableName, session(merchantId, reference, p)) : chargeEntryItem(tableName, charge(merchantId, reference, p), p.customerRef));
          all.push({
            mode: p.mode,
            sk: `${iso(p.second)}#${reference}`,
            row: {
              kind: p.kind,
              reference,
              sessionReference: p.kind === 'session' ? reference : null,
              transactionReference: p.kind === 'session' ? (p.lastFour ? `txn_of_${reference}` : null) : reference,
              customerRef: p.customerRef,
              lastFour: p.lastFour,
              brand: p.lastFour ? 'visa' : null,
              amountMinor: p.amountMinor,
              currency: p.currency,
              status: p.status,
              test: p.mode === 'test',
              createdAt: iso(p.second),
            },
          });
        }
        const filters = { customerRef: s.customerRef, lastFour: s.lastFour, amountMinor: s.amountMinor, currency: s.currency, status: s.status };
        const from = s.from === undefined ? undefined : iso(s.from);
        const to = s.to === undefined ? undefined : iso(s.to);
        const expected = all
          .filter((e) => e.mode === s.mode && matchesFilters(e.row, filters) && (!from || e.row.createdAt >= from) && (!to || e.row.createdAt < to))
          .sort((a, b) => (a.sk < b.sk ? 1 : -1))
          .map((e) => e.row);
        if (from && to && from > to) return;
        const { rows, sizes } = await walk({ merchantId, mode: s.mode, filters, from, to, limit: s.limit, now: NOW });
        expect(rows).toEqual(expected);
        expect(sizes.slice(0, -1).every((size) => size === s.limit)).toBe(true);
        expect(sizes.at(-1)!).toBeLessThanOrEqual(s.limit);
      }),
      { numRuns: 30 },
    );
  }, 240_000);

  it('are backfilled by the admin CLI for payments stored before them, once, without overwriting a newer entry', async () => {
    const merchantId = newMerchantId();
    const old = session(merchantId, 'cs_before_index', { mode: 'test', second: 1, customerRef: 'c9', lastFour: '0002', amountMinor: 100, currency: 'VES', status: 'created' });
    const oldCharge = { ...charge(merchantId, 'txn_before_index', { mode: 'test', second: 2, customerRef: null, lastFour: '4242', amountMinor: 250, currency: 'VES', status: 'approved' }), svcToken: 'tok_svc_backfill' };
    const moved = session(merchantId, 'cs_moved_since', { mode: 'test', second: 3, customerRef: null, lastFour: null, amountMinor: 100, currency: 'VES', status: 'created' });
    for (const [key, item] of [
      [keys.session(old.reference), old],
      [keys.transaction(oldCharge.reference), oldCharge],
      [keys.session(moved.reference), moved],
      [keys.card('tok_svc_backfill'), { customerRef: 'c9', merchantId: 'someone-else' }],
    ] as const) {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...key, ...item } }));
    }
    // A live write since the scan's read: its entry is newer than the stored item the backfill reads.
    await write(sessionEntryItem(tableName, { ...moved, status: 'completed', lastTransaction: { reference: 'txn_x', card: { brand: 'visa', lastFour: '1111' } } } as unknown as Session));

    // The platform team's command: the admin CLI, run as they run it.
    const cli = await runAdminCli(['payments', 'backfill-index', '--merchant', merchantId, '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual({ examined: 3, written: 2 });
    expect(await backfillPaymentEntries(db, tableName, { merchantId })).toEqual({ examined: 3, written: 0 });

    const list = (filters = {}) => walk({ merchantId, mode: 'test', filters, limit: 10, now: NOW }).then((r) => r.rows);
    expect((await list()).map((r) => [r.reference, r.status, r.lastFour])).toEqual([
      ['cs_moved_since', 'completed', '1111'],
      ['txn_before_index', 'approved', '4242'],
      ['cs_before_index', 'created', '0002'],
    ]);
    expect((await list({ customerRef: 'c9' })).map((r) => r.reference)).toEqual(['txn_before_index', 'cs_before_index']);
    expect((await list({ lastFour: '0002' })).map((r) => r.reference)).toEqual(['cs_before_index']);
  }, 60_000);
});
