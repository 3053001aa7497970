import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';

const DAY = 86_400;

describe('Gateway verification notices (daily job, sandbox clock)', () => {
  let sandbox: TestSandbox;
  const receivers: TestReceiver[] = [];
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('sends card.authentication_expiring at 15, 7 and 1 days before the estimate, each once, only to endpoints naming it', async () => {
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_otp', USD: 'card_processor' } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_otp', JSON.stringify({ apiKey: 'otp-key' }));
    const [everything, named] = await Promise.all([startReceiver(), startReceiver()]);
    receivers.push(everything, named);
    for (const [url, enabledEvents] of [
      [everything.url, undefined],
      [named.url, ['card.authentication_expiring']],
    ] as const) {
      const res = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretLive, body: { url, ...(enabledEvents ? { enabledEvents } : {}) } });
      expect(res.status, res.text).toBe(201);
    }
    const session = await openSession(sandbox, keys.secretLive, { customerRef: 'cust_notices' });
    const charged = await checkoutCharge(sandbox, session.reference, { card: card(TEST_CARDS.visa) });
    await sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference: session.reference, transactionReference: charged.body.transaction.reference, code: '123456' } });
    const [stored] = (await sandbox.request('GET', '/v1/cards', { key: keys.secretLive })).body;
    const estimate = Date.parse(stored.gatewayAuthExpiresAt);

    const notices = async () =>
      (await sandbox.deps.outbox.listForMerchant(merchant.id, 'live')).map((e) => e.envelope).filter((e) => e.type === 'card.authentication_expiring');
    /** Whole days from here on, so that each step crosses the job's daily hour exactly once. */
    const day = async (days = 1) => {
      sandbox.advance(days * DAY);
      await sandbox.background.drain();
      return (await notices()).map((e) => e.data.daysLeft);
    };
    sandbox.advance((estimate - sandbox.clock.now()) / 1000 - 16 * DAY - 3600);

    // daysLeft counts started days: 14 days and 1 hour left is the 15th day before the estimate.
    expect(await day(0)).toEqual([]); // 16 days 1 hour left
    expect(await day()).toEqual([]); // 15 days 1 hour: daysLeft 16
    expect(await day()).toEqual([15]); // 14 days 1 hour: daysLeft 15, the first notice
    expect(await day()).toEqual([15]); // sent once
    expect(await day(6)).toEqual([15]); // 7 days 1 hour: daysLeft 8
    expect(await day()).toEqual([7, 15]); // daysLeft 7
    expect(await day(5)).toEqual([7, 15]); // 1 day 1 hour: daysLeft 2
    expect(await day()).toEqual([1, 7, 15]); // 1 hour: daysLeft 1
    expect(await day()).toEqual([1, 7, 15]); // past the estimate: the gateway decides, no more notices

    const [last] = await notices();
    expect(last!.data).toEqual({
      svcToken: stored.svcToken,
      brand: 'visa',
      lastFour: '1111',
      customerRef: 'cust_notices',
      gateway: 'bank_otp',
      authenticationStatus: 'active',
      authenticatedAt: stored.gatewayAuthenticatedAt,
      estimatedExpiresAt: stored.gatewayAuthExpiresAt,
      daysLeft: 1,
    });
    const typesAt = (r: TestReceiver) => r.received.map((req) => JSON.parse(req.rawBody).type as string);
    expect(typesAt(named)).toEqual(['card.authentication_expiring', 'card.authentication_expiring', 'card.authentication_expiring']);
    expect(typesAt(everything)).not.toContain('card.authentication_expiring');
    expect(typesAt(everything)).toContain('card.stored');
  });
});
