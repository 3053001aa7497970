import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { verificationEstimate } from '../../shared/domain/stored-card.ts';
import { newTransaction } from '../../shared/domain/transaction.ts';
import { requestFingerprint } from '../../shared/http/middlewares/idempotency.ts';
import { routes } from '../../shared/routes.ts';
import { chargeReference } from '../../functions/charges/create-charge.ts';
import { TransactionSchema } from '../../shared/schemas/transaction-schemas.ts';
import { expectError } from '../support/assertions.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('POST /v1/charges: server-to-server charges of stored cards', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  /** A live merchant on the OTP bank (the gateway that charges stored cards without CVV), with its credentials. */
  const otpMerchant = async () => {
    const created = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_otp', USD: 'card_processor' } } });
    await loadBankCredentials(sandbox.deps, created.merchant.id, 'bank_otp', JSON.stringify({ apiKey: 'otp-key' }));
    return created;
  };
  /** The customer pays once in the checkout and confirms the OTP: the card is stored and verified. */
  const payWithOtp = async (key: string, customerRef: string, number: string = TEST_CARDS.mastercard) => {
    const session = await openSession(sandbox, key, { customerRef });
    const charged = await checkoutCharge(sandbox, session.reference, { card: card(number) });
    const confirmed = await sandbox.request('POST', '/v1/checkout/otp', {
      body: { sessionReference: session.reference, transactionReference: charged.body.transaction.reference, code: '123456' },
    });
    expect(confirmed.body.transaction.status).toBe('approved');
    return session;
  };
  const storedCard = async (key: string, customerRef: string) => {
    const list = await sandbox.request('GET', `/v1/cards?customerRef=${customerRef}`, { key });
    expect(list.body).toHaveLength(1);
    return list.body[0];
  };
  const charge = (key: string, body: Record<string, unknown>, idempotencyKey: string | null = randomUUID()) =>
    sandbox.request('POST', '/v1/charges', { key, body: { amountMinor: 2500, currency: 'VES', ...body }, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

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
    const body = { amountMinor: 2500, currency: 'VES', svcToken: stored.svcToken };
    const scope = { merchantId: merchant.id, mode: 'live' as const, operation: 'POST /v1/charges', key };
    // The request that died: it claimed the key and wrote its pending transaction, then its process stopped.
    await sandbox.deps.idempotency.claim(scope, requestFingerprint(routes.createCharge, '/v1/charges', body), sandbox.clock.now());
    const died = newTransaction(
      { reference: chargeReference(scope) },
      { merchantId: merchant.id, mode: 'live', sessionReference: null, gateway: 'bank_otp', amountMinor: 2500, currency: 'VES', now: sandbox.clock.now() },
      { brand: 'mastercard', lastFour: '4444', expMonth: 12, expYear: 2030, holderName: 'Ana Pérez' },
      null,
    );
    await sandbox.deps.charges.commit([sandbox.deps.transactions.putItem({ ...died, svcToken: stored.svcToken }, { isNew: true })]);

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
