import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import { checkoutCharge, eventsOf, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { otpMerchant, payWithOtp, serverCharge, storedCard } from '../support/stored-card-charges.ts';

const METADATA = { orderId: 'order_42', channel: 'web', note: 'Ñandú · 🧾' };

describe('metadata on sessions and charges', () => {
  let sandbox: TestSandbox;
  let merchantId: string;
  let keys: MerchantKeys;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ keys, merchant: { id: merchantId } } = await sandbox.newMerchant());
  });
  afterAll(() => sandbox.stop());

  const createSession = (metadata: unknown) =>
    sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1050, currency: 'VES', metadata } });

  it('is returned by create, get and list, and is {} when none was sent', async () => {
    const created = await createSession(METADATA);
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual(METADATA);
    const read = await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest });
    expect(read.body.metadata).toEqual(METADATA);
    const list = await sandbox.request('GET', '/v1/sessions?pageSize=100', { key: keys.secretTest });
    expect(list.body.data.find((s: { reference: string }) => s.reference === created.body.reference).metadata).toEqual(METADATA);

    const plain = await openSession(sandbox, keys.secretTest);
    expect(plain.metadata).toEqual({});
  });

  it.each([
    ['more than 20 keys', Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])), 'metadata'],
    ['a value over 500 characters', { orderId: 'x'.repeat(501) }, 'metadata.orderId'],
    ['a value that is not a string', { orderId: 'a', amount: 5 }, 'metadata.amount'],
    ['a key over 40 characters', { ['k'.repeat(41)]: 'v' }, `metadata.${'k'.repeat(41)}`],
    ['a key with square brackets', { 'items[0]': 'v' }, 'metadata.items[0]'],
    ['more than 8 KiB in all', Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'é'.repeat(500)])), 'metadata'],
    ['an array instead of an object', ['a'], 'metadata'],
  ])('refuses %s with 400 parameter_invalid naming the key', async (_, metadata, field) => {
    const res = await createSession(metadata);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'parameter_invalid', field });
  });

  it('accepts exactly the limits: 20 keys of 40 characters with 500-character values within 8 KiB', async () => {
    // 20 x (40 + 360) = 8,000 bytes: at every per-key limit that fits the total.
    const atLimits = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${String(i).padStart(2, '0')}${'k'.repeat(38)}`, 'v'.repeat(360)]));
    expect((await createSession(atLimits)).status).toBe(201);
    expect((await createSession({ orderId: 'v'.repeat(500) })).status).toBe(201);
  });

  it("gives a checkout charge the session's metadata: transaction detail and list, charge.approved; never the buyer's answers", async () => {
    const session = await openSession(sandbox, keys.secretTest, { metadata: METADATA });
    const paid = await checkoutCharge(sandbox, session.reference);
    expect(paid.status).toBe(200);
    expect(paid.body.transaction).not.toHaveProperty('metadata');
    const view = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    expect(JSON.stringify(view.body)).not.toContain('order_42');

    const reference = paid.body.transaction.reference;
    const detail = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest });
    expect(detail.body.metadata).toEqual(METADATA);
    const list = await sandbox.request('GET', `/v1/transactions?sessionReference=${session.reference}`, { key: keys.secretTest });
    expect(list.body.data[0].metadata).toEqual(METADATA);

    const events = await eventsOf(sandbox, merchantId, 'test', session.reference);
    expect(events.map((e) => [e.type, e.data.metadata])).toEqual([['charge.approved', METADATA]]);
  });

  it('carries the metadata in session.expired, and {} when the session has none', async () => {
    const withMetadata = await openSession(sandbox, keys.secretTest, { metadata: METADATA });
    const without = await openSession(sandbox, keys.secretTest);
    for (const s of [withMetadata, without]) {
      expect((await sandbox.request('POST', `/v1/sessions/${s.reference}/expire`, { key: keys.secretTest })).status).toBe(200);
    }
    expect((await eventsOf(sandbox, merchantId, 'test', withMetadata.reference)).map((e) => [e.type, e.data.metadata])).toEqual([['session.expired', METADATA]]);
    expect((await eventsOf(sandbox, merchantId, 'test', without.reference)).map((e) => [e.type, e.data.metadata])).toEqual([['session.expired', {}]]);
  });

  it('is accepted on POST /v1/charges and returned on its answer, its transaction and its charge.approved', async () => {
    const { merchant, keys: otpKeys } = await otpMerchant(sandbox);
    await payWithOtp(sandbox, otpKeys.secretLive, 'cus_meta');
    const card = await storedCard(sandbox, otpKeys.secretLive, 'cus_meta');

    const refused = await serverCharge(sandbox, otpKeys.secretLive, { svcToken: card.svcToken, metadata: { orderId: 7 } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'parameter_invalid', field: 'metadata.orderId' });

    const charged = await serverCharge(sandbox, otpKeys.secretLive, { svcToken: card.svcToken, metadata: { subscription: 'sub_9', period: '2026-11' } });
    expect(charged.status).toBe(200);
    expect(charged.body.metadata).toEqual({ subscription: 'sub_9', period: '2026-11' });
    const detail = await sandbox.request('GET', `/v1/transactions/${charged.body.reference}`, { key: otpKeys.secretLive });
    expect(detail.body.metadata).toEqual({ subscription: 'sub_9', period: '2026-11' });

    const events = (await sandbox.deps.outbox.listForMerchant(merchant.id, 'live')).map((e) => e.envelope);
    const event = events.find((e) => e.data.transactionReference === charged.body.reference);
    expect(event).toMatchObject({ type: 'charge.approved', data: { svcToken: card.svcToken, metadata: { subscription: 'sub_9', period: '2026-11' } } });
  });
});
