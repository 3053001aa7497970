import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../../shared/admin/bank-credentials.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { otpMerchant, payWithOtp, serverCharge, storedCard } from '../../support/stored-card-charges.ts';
import { signedInUser, type SignedIn } from './dashboard-users.ts';

type Row = { reference: string; kind: string; status: string; lastFour: string | null; customerRef: string | null; amountMinor: number; currency: string; test: boolean; createdAt: string; transactionReference: string | null };

/** Every page of a search, following nextCursor; the page sizes as read. */
async function allPages(user: SignedIn, query: string, mode: 'test' | 'live' = 'test'): Promise<{ rows: Row[]; sizes: number[] }> {
  const rows: Row[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const res = await user.request('GET', `/v1/dashboard/payments?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { mode });
    expect(res.status, res.text).toBe(200);
    expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
    rows.push(...res.body.data);
    sizes.push(res.body.data.length);
    cursor = res.body.nextCursor;
  } while (cursor);
  return { rows, sizes };
}

const references = (rows: Row[]) => rows.map((r) => r.reference);

describe('dashboard payments list (the per-payment search index)', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ logLevel: 'ERROR' });
  });
  afterAll(() => sandbox.stop());

  it('answers full pages when most payments do not match: 60 payments, 5 declined with last four 0002, pages of 2 are 2, 2, 1', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const declined: string[] = [];
    const all: string[] = [];
    for (let i = 0; i < 60; i++) {
      sandbox.advance(1);
      const session = await openSession(sandbox, keys.secretTest, { amountMinor: i % 20 === 7 ? 777 : 1000 + i, ...(i % 3 === 0 && { customerRef: 'cust-a' }) });
      all.push(session.reference);
      if (i % 12 === 5) {
        const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });
        expect(charged.body.transaction.status).toBe('declined');
        declined.push(session.reference);
      } else if (i % 7 === 0) {
        expect((await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.visa) })).body.transaction.status).toBe('approved');
      }
    }
    expect(declined).toHaveLength(5);
    const reader = await signedInUser(sandbox, merchant.id, 'read_only');

    const byLastFour = await allPages(reader, 'lastFour=0002&limit=2');
    expect(byLastFour.sizes).toEqual([2, 2, 1]);
    expect(references(byLastFour.rows)).toEqual([...declined].reverse());

    // Newest first, no duplicates, no gaps, over the whole list.
    const everything = await allPages(reader, 'limit=25');
    expect(everything.sizes).toEqual([25, 25, 10]);
    expect(references(everything.rows)).toEqual([...all].reverse());

    // A filter that is not a key (amount) still fills its pages.
    const byAmount = await allPages(reader, 'amountMinor=777&limit=2');
    expect(byAmount.sizes).toEqual([2, 1]);
    expect(byAmount.rows.every((r) => r.amountMinor === 777)).toBe(true);

    const byCustomer = await allPages(reader, 'query=cust-a&limit=7');
    expect(byCustomer.sizes).toEqual([7, 7, 6]);
    expect(references(byCustomer.rows)).toEqual(all.filter((_, i) => i % 3 === 0).reverse());
  }, 240_000);

  it('applies every filter: reference, customerRef, last four, amount, status, currency, and the mode', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'live-key' }));
    const approved = await openSession(sandbox, keys.secretTest, { amountMinor: 1500, customerRef: 'cust-1' });
    const approvedCharge = await checkoutCharge(sandbox, approved.reference, { card: card(TEST_CARDS.visa) });
    expect(approvedCharge.body.transaction.status).toBe('approved');
    const declined = await openSession(sandbox, keys.secretTest, { amountMinor: 2500, customerRef: 'cust-2', maxFailures: 0 });
    await checkoutCharge(sandbox, declined.reference, { card: card(TEST_CARDS.insufficientFunds) });
    const open = await openSession(sandbox, keys.secretTest, { amountMinor: 1500 });
    const live = await openSession(sandbox, keys.secretLive, { amountMinor: 1500, customerRef: 'cust-1' });
    const reader = await signedInUser(sandbox, merchant.id, 'read_only');
    const search = async (query: string, mode: 'test' | 'live' = 'test') => references((await allPages(reader, query, mode)).rows);

    expect(await search(`query=${approved.reference}`)).toEqual([approved.reference]);
    expect(await search(`query=${approvedCharge.body.transaction.reference}`)).toEqual([approved.reference]);
    expect(await search(`query=${approved.reference}&status=expired`)).toEqual([]);
    expect(await search('query=cust-1')).toEqual([approved.reference]);
    expect(await search('lastFour=1111')).toEqual([approved.reference]);
    expect(await search('lastFour=0002&query=cust-1')).toEqual([]);
    expect(await search('amountMinor=1500')).toEqual([open.reference, approved.reference]);
    expect(await search('amountMinor=1500&lastFour=1111')).toEqual([approved.reference]);
    expect(await search('status=completed')).toEqual([approved.reference]);
    expect(await search('status=expired')).toEqual([declined.reference]);
    expect(await search('currency=VES')).toEqual([open.reference, declined.reference, approved.reference]);
    expect(await search('currency=USD')).toEqual([]);
    // Test and live are never mixed: the mode is the caller's (Svc-Mode), and each row says which it is.
    const testRows = (await allPages(reader, 'limit=100')).rows;
    expect(testRows.every((r) => r.test)).toBe(true);
    expect(references(testRows)).not.toContain(live.reference);
    expect(await search('query=cust-1', 'live')).toEqual([live.reference]);
    expect(await search(`query=${approved.reference}`, 'live')).toEqual([]);

    const bad = await reader.request('GET', '/v1/dashboard/payments?amountMinor=12.5', { mode: 'test' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, code: 'parameter_invalid', field: 'query.amountMinor' });
    const backwards = await reader.request('GET', '/v1/dashboard/payments?from=2026-02-01&to=2026-01-01', { mode: 'test' });
    expect(backwards.status).toBe(400);
    expect(backwards.body).toMatchObject({ statusCode: 400, code: 'parameter_invalid', field: 'to' });
  }, 120_000);

  it('bounds dates with from inclusive and to exclusive, dates or times', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const made = [];
    for (let i = 0; i < 3; i++) {
      sandbox.advance(60);
      made.push(await openSession(sandbox, keys.secretTest));
    }
    const [first, second, third] = made as [Row, Row, Row];
    const reader = await signedInUser(sandbox, merchant.id, 'read_only');
    const search = async (query: string) => references((await allPages(reader, `limit=1&${query}`)).rows);
    expect(await search(`from=${second.createdAt}`)).toEqual([third.reference, second.reference]);
    expect(await search(`to=${second.createdAt}`)).toEqual([first.reference]);
    expect(await search(`from=${first.createdAt}&to=${third.createdAt}`)).toEqual([second.reference, first.reference]);
    // A time without milliseconds is the same instant as with them.
    expect(await search(`from=${second.createdAt.replace('.000Z', 'Z')}`)).toContain(second.reference);
    const day = first.createdAt.slice(0, 10);
    const nextDay = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
    expect(await search(`from=${day}&to=${nextDay}`)).toEqual(expect.arrayContaining(references(made)));
    expect(await search(`to=${day}`)).toEqual([]);
  }, 120_000);

  it("refuses a cursor of another merchant, another mode or edited (400 in the error shape), and lists a just-declined payment at once", async () => {
    const a = await sandbox.newMerchant();
    const b = await sandbox.newMerchant();
    for (let i = 0; i < 3; i++) {
      await openSession(sandbox, a.keys.secretTest);
      await openSession(sandbox, b.keys.secretTest);
    }
    const readerA = await signedInUser(sandbox, a.merchant.id, 'read_only');
    const readerB = await signedInUser(sandbox, b.merchant.id, 'read_only');
    const first = await readerA.request('GET', '/v1/dashboard/payments?limit=1', { mode: 'test' });
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect((await readerA.request('GET', `/v1/dashboard/payments?limit=1&cursor=${cursor}`, { mode: 'test' })).status).toBe(200);

    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Record<string, string>;
    const edited = (changes: Record<string, string>) => Buffer.from(JSON.stringify({ ...decoded, ...changes })).toString('base64url');
    for (const [user, sent, mode] of [
      [readerB, cursor, 'test'],
      [readerA, cursor, 'live'],
      [readerA, edited({ a: `${decoded.a}' OR 1=1` }), 'test'],
      [readerA, edited({ m: b.merchant.id }), 'test'],
      [readerA, 'not-a-cursor', 'test'],
    ] as const) {
      const res = await user.request('GET', `/v1/dashboard/payments?limit=1&cursor=${encodeURIComponent(sent)}`, { mode });
      expect(res.status, `${sent} ${mode}`).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String), code: 'parameter_invalid', field: 'cursor' });
    }
    // A cursor is only a position: one made up for B from A's position reads B's own list, never A's.
    const madeUp = await readerB.request('GET', `/v1/dashboard/payments?limit=10&cursor=${edited({ m: b.merchant.id })}`, { mode: 'test' });
    expect(madeUp.status).toBe(200);
    const ofA = (await readerA.request('GET', '/v1/dashboard/payments?limit=10', { mode: 'test' })).body.data.map((r: Row) => r.reference);
    expect(madeUp.body.data.map((r: Row) => r.reference).filter((r: string) => ofA.includes(r))).toEqual([]);

    // A checkout decline, listed in the same instant by its last four.
    const session = await openSession(sandbox, a.keys.secretTest, { amountMinor: 4321 });
    const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.insufficientFunds) });
    expect(charged.body.transaction.status).toBe('declined');
    const listed = await readerA.request('GET', '/v1/dashboard/payments?lastFour=0002', { mode: 'test' });
    expect(listed.body.data).toEqual([expect.objectContaining({ reference: session.reference, lastFour: '0002', transactionReference: charged.body.transaction.reference, amountMinor: 4321 })]);
  }, 120_000);

  it('lists a server-to-server charge with its card customer at once, and its status after a refund', async () => {
    const { merchant, keys } = await otpMerchant(sandbox);
    await payWithOtp(sandbox, keys.secretLive, 'cust-s2s');
    const stored = await storedCard(sandbox, keys.secretLive, 'cust-s2s');
    const charged = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken, customerRef: 'cust-s2s', amountMinor: 3100 });
    expect(charged.status, charged.text).toBe(200);
    const reference = charged.body.reference;
    const reader = await signedInUser(sandbox, merchant.id, 'read_only');
    const row = async () => (await allPages(reader, 'query=cust-s2s&amountMinor=3100', 'live')).rows;
    expect(await row()).toEqual([expect.objectContaining({ kind: 'charge', reference, customerRef: 'cust-s2s', status: 'approved', test: false })]);
    const refund = await sandbox.request('POST', `/v1/transactions/${reference}/refunds`, { key: keys.secretLive, body: { amountMinor: 3100 }, headers: { 'idempotency-key': `refund-${reference}` } });
    expect(refund.status, refund.text).toBe(200);
    expect(await row()).toEqual([expect.objectContaining({ reference, status: 'refunded' })]);
  }, 120_000);
});
