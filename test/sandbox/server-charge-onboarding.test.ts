import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { MerchantNotFoundError } from '../../shared/admin/errors.ts';
import { setGateway } from '../../shared/admin/merchant-settings.ts';
import { checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { payWithOtp, serverCharge, storedCard } from '../support/stored-card-charges.ts';

/**
 * A merchant onboarded onto the gateway that charges stored cards without the buyer (admin `merchant gateway`), and
 * the whole server-to-server flow in the sandbox, down to the bank asking for the card's verification again
 * (POST /__sandbox/bank/reverification): what docs/guide.md walks a developer through.
 */
describe('server-to-server charges, onboarded and tried in the sandbox', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('puts a currency on another gateway; open sessions keep theirs, new ones use it', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const before = await openSession(sandbox, keys.secretLive);
    const moved = await setGateway(sandbox.deps, merchant.id, 'VES', 'bank_otp');
    expect(moved.gateways).toEqual({ VES: 'bank_otp', USD: 'card_processor' });
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'direct-key' }));

    // The session opened before the change is charged on bank_direct: approved at once, no OTP.
    const paid = await checkoutCharge(sandbox, before.reference);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.transaction.status).toBe('approved');
    // A new one is on bank_otp (the merchant is read again after the API's 30 s cache; the store answers at once).
    expect((await sandbox.deps.merchants.get(merchant.id))!.gateways.VES).toBe('bank_otp');
  });

  it('refuses a gateway of another currency and an unknown merchant, changing nothing', async () => {
    const { merchant } = await sandbox.newMerchant();
    await expect(setGateway(sandbox.deps, merchant.id, 'USD', 'bank_otp')).rejects.toThrow('The bank_otp gateway processes VES, not USD.');
    expect((await sandbox.deps.merchants.get(merchant.id))!.gateways).toEqual({ VES: 'bank_direct', USD: 'card_processor' });
    await expect(setGateway(sandbox.deps, 'mer_doesNotExist', 'VES', 'bank_otp')).rejects.toBeInstanceOf(MerchantNotFoundError);
  });

  it('charges a verified card server to server, then sees the bank ask for verification again', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await setGateway(sandbox.deps, merchant.id, 'VES', 'bank_otp');
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_otp', JSON.stringify({ apiKey: 'otp-key' }));
    await payWithOtp(sandbox, keys.secretLive, 'cus_onboarded', TEST_CARDS.mastercard);
    const stored = await storedCard(sandbox, keys.secretLive, 'cus_onboarded');
    expect(stored.gatewayAuthStatus).toBe('active');

    const approved = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.status).toBe('approved');

    const control = await sandbox.request('POST', '/__sandbox/bank/reverification', { body: { cardNumber: '5555 5555 5555 4444' } });
    expect(control.status, control.text).toBe(200);
    expect(control.body).toEqual(expect.objectContaining({ lastFour: '4444', verification: 'required' }));
    expect(control.text).not.toContain('5555555555554444');

    const softDeclined = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken });
    expect(softDeclined.body.status, softDeclined.text).toBe('declined');
    expect(softDeclined.body.errorCode).toBe('0065');
    expect((await storedCard(sandbox, keys.secretLive, 'cus_onboarded')).gatewayAuthStatus).toBe('requires_authentication');
    const events = (await sandbox.deps.outbox.listForMerchant(merchant.id, 'live')).map((e) => e.envelope.type);
    expect(events.filter((type) => type === 'card.authentication_expired')).toHaveLength(1);
    const refused = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('authentication_required');

    // Paying once with the card in the checkout (number and OTP again) verifies the same stored card again.
    await payWithOtp(sandbox, keys.secretLive, 'cus_onboarded', TEST_CARDS.mastercard);
    const verified = await storedCard(sandbox, keys.secretLive, 'cus_onboarded');
    expect(verified.svcToken).toBe(stored.svcToken);
    expect(verified.gatewayAuthStatus).toBe('active');
    expect((await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken })).body.status).toBe('approved');
  });

  it('answers a control without a usable card number with 400 in the one error shape', async () => {
    for (const body of [{}, { cardNumber: '1234' }, { cardNumber: '4111111111111112' }, { cardNumber: 5555555555554444 }]) {
      const res = await sandbox.request('POST', '/__sandbox/bank/reverification', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(expect.objectContaining({ code: 'parameter_invalid', field: 'cardNumber' }));
    }
    const notJson = await sandbox.request('POST', '/__sandbox/bank/reverification', { rawBody: '{' });
    expect(notJson.body.code).toBe('invalid_json');
  });
});
