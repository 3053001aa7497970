import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationEstimate } from '../../shared/domain/stored-card.ts';
import { TransactionSchema } from '../../shared/schemas/transaction-responses.ts';
import { expectError } from '../support/assertions.ts';
import { checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { diedCharge, otpMerchant as otpMerchantOf, payWithOtp as payWithOtpOf, serverCharge, storedCard as storedCardOf } from '../support/stored-card-charges.ts';

describe('POST /v1/charges: server-to-server charges of stored cards', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const otpMerchant = () => otpMerchantOf(sandbox);
  const payWithOtp = (key: string, customerRef: string, number?: string) => payWithOtpOf(sandbox, key, customerRef, number);
  const storedCard = (key: string, customerRef: string) => storedCardOf(sandbox, key, customerRef);
  const charge = (key: string, body: Record<string, unknown>, idempotencyKey?: string | null) => serverCharge(sandbox, key, body, idempotencyKey);

  it('charges a verified card without the customer: its own transaction, charge.approved naming the svcToken, no session', async () => {
    const { merchant, keys } = await otpMerchant();
    await payWithOtp(keys.secretLive, 'cust_s2s');
    const stored = await storedCard(keys.secretLive, 'cust_s2s');
    const sessionsBefore = (await sandbox.request('GET', '/v1/sessions', { key: keys.secretLive })).body.total;

    const res = await charge(keys.secretLive, { svcToken: stored.svcToken, customerRef: 'cust_s2s', description: 'Suscripción' });

    expect(stored).toMatchObject({ gatewayAuthStatus: 'active', gatewayAuthenticatedAt: expect.any(String) });
    expect(stored.gatewayAuthExpiresAt).toBe(new Date(verificationEstimate(Date.parse(stored.gatewayAuthenticatedAt))).toISOString());
    expect(res.status).toBe(200);
    expect(TransactionSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ status: 'approved', sessionReference: null, svcToken: stored.svcToken, amountMinor: 2500, card: { brand: 'mastercard', lastFour: '4444' } });
    expect(sandbox.bank.calls({ reference: res.body.reference })).toEqual([{ gateway: 'bank_otp', environment: 'live', operation: 'charge', reference: res.body.reference }]);
    const events = (await sandbox.deps.outbox.listForMerchant(merchant.id, 'live')).map((e) => e.envelope).filter((e) => e.data.transactionReference === res.body.reference);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'charge.approved',
        {
          transactionReference: res.body.reference,
          amountMinor: 2500,
          currency: 'VES',
          status: 'approved',
          declineReason: null,
          errorCode: null,
          processorReference: res.body.processorReference,
          paymentMethod: { type: 'card' },
          metadata: {},
          svcToken: stored.svcToken,
        },
      ],
    ]);
    expect((await sandbox.request('GET', '/v1/sessions', { key: keys.secretLive })).body.total).toBe(sessionsBefore);
    const detail = await sandbox.request('GET', `/v1/transactions/${res.body.reference}`, { key: keys.secretLive });
    expect(detail.body).toMatchObject({ reference: res.body.reference, status: 'approved', sessionReference: null });
  });

  it('requires an Idempotency-Key and replays the first answer without charging twice', async () => {
    const { keys } = await otpMerchant();
    await payWithOtp(keys.secretLive, 'cust_idem');
    const stored = await storedCard(keys.secretLive, 'cust_idem');
    const key = randomUUID();

    const missing = await charge(keys.secretLive, { svcToken: stored.svcToken }, null);
    const first = await charge(keys.secretLive, { svcToken: stored.svcToken }, key);
    const replay = await charge(keys.secretLive, { svcToken: stored.svcToken }, key);

    expectError(missing, 400, 'idempotency_key_missing', 'header.idempotency-key');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(sandbox.bank.calls({ reference: first.body.reference, operation: 'charge' })).toHaveLength(1);
  });

  it('resumes a charge whose request died after writing it: same reference, one bank charge, one transaction', async () => {
    const { merchant, keys } = await otpMerchant();
    await payWithOtp(keys.secretLive, 'cust_crash');
    const stored = await storedCard(keys.secretLive, 'cust_crash');
    const key = randomUUID();
    const died = await diedCharge(sandbox, merchant.id, stored.svcToken, key);

    const meanwhile = await charge(keys.secretLive, { svcToken: stored.svcToken }, key);
    sandbox.advance(31);
    const resumed = await charge(keys.secretLive, { svcToken: stored.svcToken }, key);

    expectError(meanwhile, 409, 'idempotency_in_progress');
    expect(resumed.body).toMatchObject({ reference: died.reference, status: 'approved', svcToken: stored.svcToken });
    expect(sandbox.bank.calls({ reference: died.reference, operation: 'charge' })).toHaveLength(1);
    const list = await sandbox.request('GET', '/v1/transactions?pageSize=100', { key: keys.secretLive });
    expect(list.body.data.filter((t: { sessionReference: string | null }) => t.sessionReference === null)).toHaveLength(1);
  });

  it('answers 409 test_mode_off to a test key while test mode is off', async () => {
    const { keys } = await sandbox.newMerchant({ changes: { testMode: { bank_direct: false } } });
    const { message } = expectError(await charge(keys.secretTest, { svcToken: 'tok_svc_Any000000000000000000000' }), 409, 'test_mode_off');
    expect(message).toMatch(/live/);
  });

  it('refuses cards it may not charge: CVV-flow cards 409, wrong customer 409, unknown, foreign or deleted 404, wrong currency 400', async () => {
    const { keys } = await otpMerchant();
    const { keys: other } = await otpMerchant();
    await payWithOtp(keys.secretLive, 'cust_rules');
    const stored = await storedCard(keys.secretLive, 'cust_rules');
    const { keys: direct } = await sandbox.newMerchant();
    const directSession = await openSession(sandbox, direct.secretTest, { customerRef: 'cust_cvv' });
    await checkoutCharge(sandbox, directSession.reference);
    const cvvCard = await storedCard(direct.secretTest, 'cust_cvv');

    expectError(await charge(direct.secretTest, { svcToken: cvvCard.svcToken }), 409, 'card_flow_unsupported');
    expectError(await charge(keys.secretLive, { svcToken: stored.svcToken, customerRef: 'someone_else' }), 409, 'customer_mismatch');
    expectError(await charge(other.secretLive, { svcToken: stored.svcToken }), 404, 'resource_missing', 'svcToken');
    expectError(await charge(keys.secretLive, { svcToken: 'tok_svc_Unknown00000000000000000' }), 404, 'resource_missing', 'svcToken');
    expectError(await charge(keys.secretLive, { svcToken: stored.svcToken, currency: 'USD' }), 400, 'parameter_invalid', 'currency');
    expectError(await charge(keys.secretLive, { svcToken: 'card_1' }), 400, 'parameter_invalid', 'svcToken');
    // Such a card is not offered to the CVV-only checkout either.
    const session = await sandbox.request('POST', '/v1/sessions', { key: keys.secretLive, body: { amountMinor: 100, currency: 'VES', cardToken: stored.svcToken } });
    expectError(session, 409, 'card_flow_unsupported');
    await sandbox.request('DELETE', `/v1/cards/${stored.svcToken}`, { key: keys.secretLive });
    expectError(await charge(keys.secretLive, { svcToken: stored.svcToken }), 404, 'resource_missing', 'svcToken');
  });

  it('marks the card requires_authentication when the gateway asks again, once; the customer paying once with it restores it', async () => {
    const { merchant, keys } = await otpMerchant();
    await payWithOtp(keys.secretLive, 'cust_reverify', TEST_CARDS.visa);
    const stored = await storedCard(keys.secretLive, 'cust_reverify');
    sandbox.bank.demandReverification(TEST_CARDS.visa);

    const declined = await charge(keys.secretLive, { svcToken: stored.svcToken });
    const refused = await charge(keys.secretLive, { svcToken: stored.svcToken });
    const marked = await storedCard(keys.secretLive, 'cust_reverify');

    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 'declined', errorCode: '0065', processorReference: null });
    expectError(refused, 409, 'authentication_required');
    expect(marked.gatewayAuthStatus).toBe('requires_authentication');
    const expired = (await sandbox.deps.outbox.listForMerchant(merchant.id, 'live')).map((e) => e.envelope).filter((e) => e.type === 'card.authentication_expired');
    expect(expired.map((e) => e.data)).toEqual([
      {
        svcToken: stored.svcToken,
        brand: 'visa',
        lastFour: '1111',
        customerRef: 'cust_reverify',
        gateway: 'bank_otp',
        authenticationStatus: 'requires_authentication',
        authenticatedAt: stored.gatewayAuthenticatedAt,
        estimatedExpiresAt: stored.gatewayAuthExpiresAt,
        transactionReference: declined.body.reference,
      },
    ]);

    sandbox.advance(3600);
    await payWithOtp(keys.secretLive, 'cust_reverify', TEST_CARDS.visa);
    const renewed = await storedCard(keys.secretLive, 'cust_reverify');
    const again = await charge(keys.secretLive, { svcToken: stored.svcToken });

    expect(renewed.svcToken).toBe(stored.svcToken);
    expect(renewed.gatewayAuthStatus).toBe('active');
    expect(Date.parse(renewed.gatewayAuthenticatedAt)).toBeGreaterThan(Date.parse(stored.gatewayAuthenticatedAt));
    expect(again.body.status).toBe('approved');
  });
});
