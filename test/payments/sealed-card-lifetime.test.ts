import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { createParkedRecords } from '../../shared/background/parked-records.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { SEALED_CARD_TTL_AFTER_EXPIRY_MS } from '../../shared/payments/card-vault.ts';
import { keys as tableKeys } from '../../shared/store/keys.ts';
import { MERCANTIL_TEST_DATA } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { card, openSession } from '../support/checkout.ts';
import { scanTable, testConnection, testDb } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { streamRecordTexts } from '../support/stream-records.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const credit = card(MERCANTIL_TEST_DATA.credit.cardNumber, { expMonth: 1, expYear: 2025, cvv: '123' });
const debit = card(MERCANTIL_TEST_DATA.debit.cardNumber, { expMonth: 11, expYear: 2040, cvv: '111' });
const debitHolder = { type: 'V', id: '999999' };
/** Waits are for a condition, generous for a loaded machine. */
const PATIENTLY = { timeout: 60_000, interval: 100 };

/**
 * Issue 33, finding 3: the card number sealed for a later request (Mercantil's debit `pay` takes the card again with
 * the code) is written only when the bank asked for the code, in an item of its own with a TTL, and dropped by the
 * write that confirms the code; a card paid at once is never sealed.
 */
describe('The sealed card number of a checkout attempt: where and how long', () => {
  let sandbox: TestSandbox;
  const db = testDb();
  const { tableName } = testConnection();
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 1_500 });
  });
  afterAll(async () => {
    await sandbox.stop();
    db.destroy();
  });

  const mercantilSession = async () => {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    return { merchant, keys, session: await openSession(sandbox, keys.secretTest, { amountMinor: 500 }) };
  };
  const charge = (sessionReference: string, payment: Record<string, unknown>, document: Record<string, unknown> = { type: 'V', id: '18366876' }) =>
    sandbox.request('POST', '/v1/checkout/charge', { body: { sessionReference, card: payment, document }, headers: { 'idempotency-key': randomUUID(), 'user-agent': BROWSER } });
  const otp = (sessionReference: string, transactionReference: string) =>
    sandbox.request('POST', '/v1/checkout/otp', {
      body: { sessionReference, transactionReference, code: '11111111', cvv: '111', accountType: 'CC' },
      headers: { 'user-agent': BROWSER },
    });
  const sealedItem = async (transaction: string) => (await db.send(new GetCommand({ TableName: tableName, Key: tableKeys.sealedCard(transaction), ConsistentRead: true }))).Item;
  const transactionItem = async (transaction: string) => (await db.send(new GetCommand({ TableName: tableName, Key: tableKeys.transaction(transaction), ConsistentRead: true }))).Item!;
  /** Items and stream records about the attempt that hold a sealed number. */
  const sealedCopies = async (transaction: string) => [
    ...(await scanTable()).map((item) => JSON.stringify(item)),
    ...(await streamRecordTexts()).map((record) => record.text),
  ].filter((text) => text.includes(transaction) && text.includes('encryptedNumber'));
  const ttlBound = (expiresAt: string) => Math.ceil((Date.parse(expiresAt) + SEALED_CARD_TTL_AFTER_EXPIRY_MS) / 1000);

  it('never seals a Mercantil credit card, which is paid at once: no item or stream record holds its number', async () => {
    const { session } = await mercantilSession();
    const paid = await charge(session.reference, credit);
    expect(paid.body).toMatchObject({ transaction: { status: 'approved' } });
    expect(await sealedCopies(paid.body.transaction.reference)).toEqual([]);
  });

  it('seals a debit card when the bank asks for the code, in its own item with a TTL, and drops it when the code is sent; a pay that timed out settles without it', async () => {
    const { keys, session } = await mercantilSession();
    const asked = await charge(session.reference, debit, debitHolder);
    expect(asked.body).toMatchObject({ session: { status: 'otp_requested' } });
    const txn = asked.body.transaction.reference as string;

    expect(await sealedItem(txn)).toMatchObject({ sealedCard: { encryptedNumber: expect.any(String) }, ttl: ttlBound(session.expiresAt) });
    expect(JSON.stringify(await transactionItem(txn))).not.toContain('encryptedNumber');

    sandbox.mercantil.injectFault('pay', 'timeout');
    const sent = await otp(session.reference, txn);
    expect(sent.status).toBe(202);
    expect(sent.body.transaction.status).toBe('pending');
    expect(await sealedItem(txn)).toBeUndefined();

    // The status read (Mercantil's search) settles the charge without any card number.
    sandbox.advance(61);
    await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(read.body).toMatchObject({ status: 'completed', lastTransaction: { status: 'approved' } });
    expect(JSON.stringify(await transactionItem(txn))).not.toContain('encryptedNumber');
  });

  it('drops the sealed number of an abandoned code step at the timed expiry', async () => {
    const { session } = await mercantilSession();
    const asked = await charge(session.reference, debit, debitHolder);
    const txn = asked.body.transaction.reference as string;
    expect(await sealedItem(txn)).toBeDefined();

    sandbox.advance((Date.parse(session.expiresAt) - sandbox.clock.now()) / 1000 + 1);
    await vi.waitFor(async () => {
      await sandbox.background.drain();
      expect((await transactionItem(txn)).errorCode).toBe('otp_expired');
    }, PATIENTLY);
    expect(await sealedItem(txn)).toBeUndefined();
  });

  it('clears the sealed number of an abandoned code step by its TTL when the expiry message is parked, and leaves the transaction', async () => {
    const { merchant, session } = await mercantilSession();
    const asked = await charge(session.reference, debit, debitHolder);
    const txn = asked.body.transaction.reference as string;

    // The fault: the expiry worker cannot read the merchant, on every receive, until its message is parked.
    const fault = vi.spyOn(sandbox.deps.merchants, 'get').mockRejectedValue(new Error('merchant read failed'));
    const parked = createParkedRecords(db, tableName);
    const parkedExpiry = async () => (await parked.list()).find((p) => p.workerId === 'expireSessions' && JSON.stringify(p.record).includes(session.reference));
    try {
      sandbox.advance((Date.parse(session.expiresAt) - sandbox.clock.now()) / 1000 + 1);
      await vi.waitFor(async () => {
        await sandbox.background.drain();
        if (!(await parkedExpiry())) sandbox.advance(121); // past the message's visibility: the next receive
        expect(await parkedExpiry()).toBeDefined();
      }, PATIENTLY);
    } finally {
      fault.mockRestore();
    }
    expect((await parkedExpiry())!.error.message).toBe('merchant read failed');

    // Nothing settled the attempt, so the number is still sealed, in an item DynamoDB's TTL deletes an hour after
    // the session's end. Run that deletion as DynamoDB does: every item of the merchant past its TTL goes.
    const transactionBefore = await transactionItem(txn);
    expect(transactionBefore.status).toBe('pending');
    const sweepAt = ttlBound(session.expiresAt);
    const expired = (await scanTable()).filter((item) => typeof item.ttl === 'number' && item.ttl <= sweepAt && JSON.stringify(item).includes(txn));
    expect(expired.map((item) => item.pk)).toContain(tableKeys.sealedCard(txn).pk);
    for (const item of expired) await db.send(new DeleteCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } }));

    expect((await scanTable()).filter((item) => JSON.stringify(item).includes(txn) && JSON.stringify(item).includes('encryptedNumber'))).toEqual([]);
    expect(await transactionItem(txn)).toMatchObject({ reference: txn, merchantId: merchant.id, status: 'pending' });
  });
});
