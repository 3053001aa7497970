import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { checkoutCharge, eventsOf, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('USD sessions at the external processor', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  /** A live USD session whose buyer has opened the checkout: the pending payment exists at the processor. */
  async function openedUsdSession() {
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'card_processor', JSON.stringify({ apiKey: 'processor-key' }));
    const session = await openSession(sandbox, keys.secretLive, { amountMinor: 2500, currency: 'USD' });
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);
    return { merchant, keys, session, page };
  }

  it('cancels the pending payment when the merchant expires the session; the opened transaction becomes failed', async () => {
    const { merchant, keys, session, page } = await openedUsdSession();

    const expired = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretLive });

    expect(page.body).toMatchObject({ status: 'created', requiresDocument: false, test: false, lastTransaction: { status: 'pending', card: null } });
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ status: 'expired', closedReason: 'merchant_request', lastTransaction: { status: 'failed', errorCode: 'payment_cancelled' } });
    expect(sandbox.bank.calls({ reference: session.reference }).map((c) => c.operation)).toEqual(['create_payment', 'cancel']);
    const events = await eventsOf(sandbox, merchant.id, 'live', session.reference);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.failed', 'session.expired']);
    expect(events.find((e) => e.type === 'charge.failed')!.data).toMatchObject({ transactionReference: page.body.lastTransaction.reference, status: 'failed', errorCode: 'payment_cancelled' });
    const charge = await checkoutCharge(sandbox, session.reference, { document: null });
    expect(charge.status).toBe(410);
  });

  it('answers 503 and changes nothing when the processor cannot cancel', async () => {
    const { merchant, keys, session } = await openedUsdSession();
    sandbox.bank.setFaults({ cancelFails: true });

    const expired = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretLive }).finally(() => sandbox.bank.setFaults({ cancelFails: false }));

    expect(expired.status).toBe(503);
    expect(expired.body).toMatchObject({ statusCode: 503, code: 'processor_cancellation_failed' });
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretLive });
    expect(read.body).toMatchObject({ status: 'created', closedReason: null, lastTransaction: { status: 'pending' } });
    expect(await eventsOf(sandbox, merchant.id, 'live', session.reference)).toEqual([]);
  });

  it('answers 409 when the processor had already charged the payment', async () => {
    const { keys, session } = await openedUsdSession();
    sandbox.bank.markPaymentCharged(session.reference);

    const expired = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretLive });

    expect(expired.status).toBe(409);
    expect(expired.body.code).toBe('processor_already_charged');
  });

  it('charges the opened payment with the card: the same transaction is approved', async () => {
    const { keys, session, page } = await openedUsdSession();

    const charge = await checkoutCharge(sandbox, session.reference, { document: null });
    const expire = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretLive });

    expect(charge.status).toBe(200);
    expect(charge.body.transaction).toMatchObject({ reference: page.body.lastTransaction.reference, status: 'approved', currency: 'USD', amountMinor: 2500, test: false });
    expect(charge.body.session).toMatchObject({ status: 'completed' });
    expect(expire.status).toBe(409);
    expect(expire.body.code).toBe('session_completed');
  });
});
