import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENTS_CSV_COLUMNS } from '../../../shared/domain/payments-csv.ts';
import { PaymentsExportPageSchema } from '../../../shared/schemas/payment-export-responses.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../../support/checkout.ts';
import { parseCsv } from '../../support/csv.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, type SignedIn } from './dashboard-users.ts';

/** Every page of an export, following nextCursor: the joined CSV, the pages' row counts and the export ids. */
async function exportAll(user: SignedIn, query: string) {
  let csv = '';
  const sizes: number[] = [];
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const res = await user.request('GET', `/v1/payments/export?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { mode: 'test' });
    expect(res.status, res.text).toBe(200);
    const page = PaymentsExportPageSchema.parse(res.body);
    csv += page.csv;
    sizes.push(page.rows);
    ids.add(page.id);
    cursor = page.nextCursor;
  } while (cursor);
  return { rows: parseCsv(csv), sizes, ids: [...ids] };
}

describe('GET /v1/payments/export (the payments list as CSV, a page per request)', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ logLevel: 'ERROR' });
  });
  afterAll(() => sandbox.stop());

  it('exports the filtered list page by page with every column, refunds included; each page is audited under one export id', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const paid: { reference: string; transaction: string; bank: string }[] = [];
    for (const [i, customerRef] of ['=HYPERLINK("http://evil")', 'cust,2', 'cust-3', 'cust-4'].entries()) {
      sandbox.advance(60);
      const session = await openSession(sandbox, keys.secretTest, { amountMinor: 125_050 + i, customerRef });
      const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.visa) });
      paid.push({ reference: session.reference, transaction: charged.body.transaction.reference, bank: charged.body.transaction.processorReference });
    }
    sandbox.advance(60);
    const unpaid = await openSession(sandbox, keys.secretTest, { amountMinor: 999 });
    const refunded = await sandbox.request('POST', `/v1/transactions/${paid[1]!.transaction}/refunds`, { key: keys.secretTest, body: { amountMinor: 50 }, headers: { 'idempotency-key': randomUUID() } });
    expect(refunded.body.status).toBe('succeeded');
    const admin = await signedInUser(sandbox, merchant.id, 'admin');
    const reader = await signedInUser(sandbox, merchant.id, 'read_only');

    const all = await exportAll(reader, 'limit=2');
    expect(all.sizes).toEqual([2, 2, 1]);
    expect(all.ids).toHaveLength(1);
    const [header, ...lines] = all.rows;
    expect(header).toEqual([...PAYMENTS_CSV_COLUMNS]);
    const byReference = new Map(lines.map((line) => [line[header!.indexOf('reference')], Object.fromEntries(header!.map((name, i) => [name, line[i]]))]));
    expect([...byReference.keys()]).toEqual([unpaid.reference, ...paid.map((p) => p.reference).reverse()]);
    expect(byReference.get(paid[1]!.reference)).toMatchObject({
      amount_minor: '125051',
      amount: '1250.51',
      currency: 'VES',
      status: 'completed',
      method: 'card',
      card_brand: 'visa',
      card_last4: TEST_CARDS.visa.slice(-4),
      bank_reference: paid[1]!.bank,
      session_reference: paid[1]!.reference,
      transaction_reference: paid[1]!.transaction,
      customer_ref: 'cust,2',
      refunded_minor: '50',
      refunded: '0.50',
      refunded_externally_minor: '0',
    });
    const first = byReference.get(paid[0]!.reference)!;
    expect(first.customer_ref).toBe(`'=HYPERLINK("http://evil")`);
    expect(first.created_at_utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(first.created_at_caracas).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} -04:00$/);
    expect(byReference.get(unpaid.reference)).toMatchObject({ status: 'created', bank_reference: '', refunded_minor: '0', transaction_reference: '' });

    const filtered = await exportAll(reader, 'status=completed&currency=VES');
    expect(filtered.rows).toHaveLength(5);

    const audit = (await admin.request('GET', '/v1/dashboard/audit-log?limit=100')).body.data as { action: string; target: string; email: string; detail: Record<string, unknown> }[];
    const exported = audit.filter((e) => e.action === 'payments.exported' && e.target === all.ids[0]);
    expect(exported.map((e) => [e.email, e.detail.rows, e.detail.first, e.detail.last])).toEqual([
      [reader.email, 1, false, true],
      [reader.email, 2, false, false],
      [reader.email, 2, true, false],
    ]);
    expect(audit.find((e) => e.action === 'payments.exported' && e.target === filtered.ids[0])?.detail.filters).toBe('status=completed&currency=VES');
  });

  it('refuses bad filters and a cursor it did not answer with 400 in the one error shape', async () => {
    const { merchant } = await sandbox.newMerchant();
    const reader = await signedInUser(sandbox, merchant.id, 'read_only');
    const badLastFour = await reader.request('GET', '/v1/payments/export?lastFour=12', { mode: 'test' });
    const backwards = await reader.request('GET', '/v1/payments/export?from=2026-02-01&to=2026-01-01', { mode: 'test' });
    const forged = await reader.request('GET', '/v1/payments/export?cursor=abc.def', { mode: 'test' });
    const tooMany = await reader.request('GET', '/v1/payments/export?limit=501', { mode: 'test' });
    expect([badLastFour, backwards, forged, tooMany].map((r) => [r.status, r.body.field])).toEqual([
      [400, 'query.lastFour'],
      [400, 'to'],
      [400, 'cursor'],
      [400, 'query.limit'],
    ]);
    expect(forged.body).toMatchObject({ statusCode: 400, code: 'parameter_invalid' });
  });
});

describe('refunds from the dashboard (a user token on POST /v1/transactions/{reference}/refunds)', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ logLevel: 'ERROR' });
  });
  afterAll(() => sandbox.stop());

  it('lets an admin refund and records it in the audit log with amount and method; developers and read-only users get 403', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { amountMinor: 1000 });
    const txn = (await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.visa) })).body.transaction.reference as string;
    const admin = await signedInUser(sandbox, merchant.id, 'admin');
    const developer = await signedInUser(sandbox, merchant.id, 'developer');
    const reader = await signedInUser(sandbox, merchant.id, 'read_only');
    const refundAs = (user: SignedIn, body: Record<string, unknown>) => user.request('POST', `/v1/transactions/${txn}/refunds`, { mode: 'test', body, headers: { 'idempotency-key': randomUUID() } });

    const refusals = [await refundAs(developer, { amountMinor: 100 }), await refundAs(reader, { amountMinor: 100 })];
    const part = await refundAs(admin, { amountMinor: 300 });
    const detail = await admin.request('GET', `/v1/dashboard/payments/${session.reference}`, { mode: 'test' });

    expect(refusals.map((r) => [r.status, r.body.code])).toEqual([
      [403, 'insufficient_permissions'],
      [403, 'insufficient_permissions'],
    ]);
    expect(part.body).toMatchObject({ status: 'succeeded', amountMinor: 300, method: 'refund' });
    expect(detail.body.transactions[0]).toMatchObject({ amountRefundedMinor: 300, refunds: [expect.objectContaining({ reference: part.body.reference, amountMinor: 300 })] });
    const audit = (await admin.request('GET', '/v1/dashboard/audit-log?limit=100')).body.data as { action: string; target: string; email: string; detail: Record<string, unknown> }[];
    expect(audit.filter((e) => e.action === 'refund.created')).toEqual([
      expect.objectContaining({ email: admin.email, target: txn, detail: { refund: part.body.reference, status: 'succeeded', amountMinor: 300, currency: 'VES', method: 'refund' } }),
    ]);
  });
});
