import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { TEST_CARDS, card, checkoutCharge, eventsOf, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

/** Sessions that nobody reopens after expiresAt: the timed expiry alone must settle them. */
describe('timed expiry of sessions left with an attempt open', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    // The timeout card waits out the bank deadline: keep it short.
    sandbox = await startTestSandbox({ gatewayTimeoutMs: 200 });
  });
  afterAll(() => sandbox.stop());

  const passExpiry = async (minutes: number) => {
    await sandbox.background.drain();
    sandbox.advance(minutes * 60 + 1);
    await sandbox.background.drain();
  };

  it('declines an OTP left unconfirmed and closes the session with reason expired', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { expiresInMinutes: 2 });
    const charge = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.otp) });
    expect(charge.status).toBe(202);

    await passExpiry(2);

    const after = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(after.body).toMatchObject({ status: 'expired', closedReason: 'expired', lastTransaction: { status: 'declined', errorCode: 'otp_expired' } });
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.declined', 'session.expired', 'session.otp_requested']);
  });

  it('settles a charge still pending at the bank from its record instead of expiring the session', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest, { expiresInMinutes: 2 });
    const charge = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.timeout) });
    expect(charge.status).toBe(202);

    await passExpiry(2);

    const after = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretTest });
    expect(after.body).toMatchObject({ status: 'completed', closedReason: null, lastTransaction: { status: 'approved' } });
    expect(sandbox.bank.calls({ reference: charge.body.transaction.reference, operation: 'charge' })).toHaveLength(1);
    const events = await eventsOf(sandbox, merchant.id, 'test', session.reference);
    expect(events.map((e) => e.type)).toEqual(['charge.approved']);
  });

  it('cancels the pending payment of a USD session at the processor when it expires by time', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'card_processor', JSON.stringify({ apiKey: 'processor-key' }));
    const session = await openSession(sandbox, keys.secretLive, { amountMinor: 2500, currency: 'USD', expiresInMinutes: 2 });
    await sandbox.request('GET', `/v1/checkout/sessions/${session.reference}`);

    await passExpiry(2);

    const after = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretLive });
    expect(after.body).toMatchObject({ status: 'expired', closedReason: 'expired', lastTransaction: { status: 'failed', errorCode: 'payment_cancelled' } });
    expect(sandbox.bank.calls({ reference: session.reference }).map((c) => c.operation)).toEqual(['create_payment', 'cancel']);
    const events = await eventsOf(sandbox, merchant.id, 'live', session.reference);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.failed', 'session.expired']);
  });
});
