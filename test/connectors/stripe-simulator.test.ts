import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OffsetClock } from '../../shared/clock.ts';
import { stripeGateway, type StripeGateway } from '../../shared/connectors/stripe/stripe-gateway.ts';
import { STRIPE_DECLINE_REASONS } from '../../shared/connectors/stripe/outcomes.ts';
import { STRIPE_API_VERSION } from '../../shared/connectors/stripe/wire.ts';
import type { BankAccount, ChargeRequest } from '../../shared/gateways/payment-gateway.ts';
import type { PaymentData } from '../../shared/domain/payment-data.ts';
import { GatewayUnavailableError } from '../../shared/gateways/payment-gateway.ts';
import { startStripeSimulator, type StripeSimulator } from '../../infra/sandbox/stripe/stripe-simulator.ts';

/** What the charge of an approval tells (expanded latest_charge): the card's funding and the issuer's authorization code. */
const APPROVED_CARD = { funding: 'credit', authorizationCode: expect.stringMatching(/^\d{6}$/) };

const fixtures = JSON.parse(readFileSync(new URL('./fixtures/stripe-fixtures3.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;

const TEST_KEY = 'sk_test_simulator0001';
const account: BankAccount = { environment: 'test', credentials: JSON.stringify({ secretKey: TEST_KEY }) };
/** Short enough to cross a held answer quickly, generous for a busy machine. */
const TIMEOUT_MS = 3_000;

let counter = 0;
const refs = () => {
  counter += 1;
  const id = `${process.pid}x${Date.now()}x${counter}`;
  return { sessionReference: `ses_${id}`, transactionReference: `txn_${id}` };
};
const chargeOf = (number: string, overrides: Partial<Omit<ChargeRequest, 'payment'>> = {}): ChargeRequest & { payment: PaymentData } => ({
  ...refs(),
  amountMinor: 2500,
  currency: 'USD',
  payment: { card: { number, expMonth: 12, expYear: 2034, cvv: '123', holderName: 'Ana Pérez' }, document: null },
  ...overrides,
});

describe('Stripe connector against the Stripe simulator', () => {
  let simulator: StripeSimulator;
  let stripe: StripeGateway;
  const clock = new OffsetClock();
  beforeAll(async () => {
    simulator = await startStripeSimulator({ clock });
    stripe = stripeGateway({ urls: { live: simulator.url, test: simulator.url }, timeoutMs: TIMEOUT_MS });
  });
  afterAll(() => simulator.close());
  beforeEach(() => simulator.clearFaults());

  describe('requests on the wire', () => {
    it('opens a PaymentIntent per session: form body, Basic auth with the key, pinned version, Idempotency-Key from the session', async () => {
      const { sessionReference } = refs();

      const status = await stripe.openPayment!({ sessionReference, amountMinor: 2500, currency: 'USD' }, account);

      const [call] = simulator.calls().filter((c) => c.params.metadata && (c.params.metadata as Record<string, string>).svc_session === sessionReference);
      expect(status).toBe('pending');
      expect(call).toEqual({
        method: 'POST',
        path: '/v1/payment_intents',
        operation: 'create_intent',
        idempotencyKey: `svc-${sessionReference}-open`,
        stripeVersion: STRIPE_API_VERSION,
        contentType: 'application/x-www-form-urlencoded',
        livemode: false,
        params: { amount: '2500', currency: 'usd', capture_method: 'manual', allowed_payment_method_types: ['card'], metadata: { svc_session: sessionReference } },
      });
      expect(simulator.intentOf(sessionReference)).toMatchObject({ status: 'requires_payment_method', capture_method: 'manual', amount: 2500, currency: 'usd', livemode: false });
    });

    it('answers objects with every field of Stripe\'s own examples (fixtures3.json)', async () => {
      const request = chargeOf('4242424242424242');
      await stripe.charge(request, account);
      const intent = simulator.intentOf(request.sessionReference)!;
      const refundReply = await fetch(`${simulator.url}/v1/refunds`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${TEST_KEY}:`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': `fixture-${request.transactionReference}` },
        body: `payment_intent=${intent.id}&amount=100`,
      });
      const refund = (await refundReply.json()) as Record<string, unknown>;
      const read = await fetch(`${simulator.url}/v1/payment_intents/${intent.id}?expand[]=payment_method`, { headers: { authorization: `Basic ${Buffer.from(`${TEST_KEY}:`).toString('base64')}` } });
      const expanded = (await read.json()) as Record<string, unknown>;

      expect(Object.keys(intent)).toEqual(expect.arrayContaining(Object.keys(fixtures.payment_intent!)));
      expect(Object.keys(refund)).toEqual(expect.arrayContaining(Object.keys(fixtures.refund!)));
      expect(Object.keys(expanded.payment_method as object)).toEqual(expect.arrayContaining(Object.keys(fixtures.payment_method!)));
      expect(Object.keys((expanded.payment_method as { card: object }).card)).toEqual(expect.arrayContaining(Object.keys(fixtures.payment_method!.card as object)));
      expect(expanded).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount_received: 2500, payment_method: { object: 'payment_method', type: 'card', card: { last4: '4242', brand: 'visa' } } });
      expect(JSON.stringify(expanded)).not.toContain('4242424242424242');
    });

    it('confirms with the card under an Idempotency-Key of the transaction, then captures under another', async () => {
      const request = chargeOf('4242424242424242');

      const outcome = await stripe.charge(request, account);

      const intent = simulator.intentOf(request.sessionReference)!;
      const confirm = simulator.calls({ operation: 'confirm', path: `/v1/payment_intents/${intent.id}/confirm` });
      const capture = simulator.calls({ operation: 'capture', path: `/v1/payment_intents/${intent.id}/capture` });
      expect(outcome).toEqual({ ...APPROVED_CARD, kind: 'approved', processorReference: intent.id });
      expect(intent).toMatchObject({ status: 'succeeded', amount_received: 2500, amount_capturable: 0 });
      expect(confirm).toEqual([
        expect.objectContaining({
          idempotencyKey: `svc-${request.transactionReference}-confirm`,
          params: {
            payment_method_data: { type: 'card', card: { exp_month: '12', exp_year: '2034', last4: '4242' }, billing_details: { name: 'Ana Pérez' }, metadata: { svc_transaction: request.transactionReference } },
            expand: ['payment_method'],
          },
        }),
      ]);
      expect(capture).toEqual([expect.objectContaining({ idempotencyKey: `svc-${request.transactionReference}-capture`, params: { metadata: { svc_transaction: request.transactionReference }, expand: ['latest_charge'] } })]);
    });
  });

  describe('outcomes', () => {
    it.each([
      ['4000000000000002', 'declined', 'generic_decline'],
      ['4000000000009995', 'declined', 'insufficient_funds'],
      ['4000000000009987', 'declined', 'lost_card'],
      ['4000000000009979', 'declined', 'stolen_card'],
      ['4000000000000069', 'declined', 'expired_card'],
      ['4000000000000127', 'declined', 'incorrect_cvc'],
      ['4000000000000119', 'failed', 'processing_error'],
      ['4242424242424241', 'declined', 'incorrect_number'],
      ['4000000000003220', 'declined', 'authentication_required'],
    ])('card %s: %s with Stripe\'s code %s, a Spanish reason, the intent open for another card', async (number, kind, code) => {
      const request = chargeOf(number);

      const outcome = await stripe.charge(request, account);

      expect(outcome).toMatchObject({ kind, code });
      expect(outcome).toMatchObject({ reason: STRIPE_DECLINE_REASONS[code] });
      expect(['requires_payment_method', 'requires_action']).toContain(simulator.intentOf(request.sessionReference)!.status);
      expect(simulator.calls({ operation: 'capture', path: `/v1/payment_intents/${simulator.intentOf(request.sessionReference)!.id}/capture` })).toEqual([]);
    });

    it('a past expiry declines with expired_card, whatever the number', async () => {
      const request = chargeOf('4242424242424242');
      request.payment.card.expYear = 2001;

      expect(await stripe.charge(request, account)).toMatchObject({ kind: 'declined', code: 'expired_card' });
    });

    it('a second card after a decline is approved on the same intent', async () => {
      const first = chargeOf('4000000000009995');
      await stripe.charge(first, account);

      const second = await stripe.charge({ ...chargeOf('4242424242424242'), sessionReference: first.sessionReference }, account);

      expect(second).toEqual({ ...APPROVED_CARD, kind: 'approved', processorReference: simulator.intentOf(first.sessionReference)!.id });
      expect(simulator.calls({ operation: 'create_intent' }).filter((c) => (c.params.metadata as Record<string, string>).svc_session === first.sessionReference)).toHaveLength(2);
    });

    it('an idempotent repeat of the same attempt answers its first result and is never confirmed twice', async () => {
      const request = chargeOf('4242424242424242');
      const first = await stripe.charge(request, account);

      const repeat = await stripe.charge(request, account);
      const declined = chargeOf('4000000000000002');
      await stripe.charge(declined, account);
      const declinedRepeat = await stripe.charge(declined, account);

      expect(repeat).toEqual(first);
      expect(declinedRepeat).toMatchObject({ kind: 'declined', code: 'generic_decline' });
      const intentId = simulator.intentOf(request.sessionReference)!.id;
      expect(simulator.calls({ path: `/v1/payment_intents/${intentId}/confirm` })).toHaveLength(1);
    });

    it('a confirm whose answer never arrives is pending, then reconciled by a status read that captures it', async () => {
      const request = chargeOf('4242424242424242');
      simulator.injectFault({ operation: 'confirm', kind: 'delay' });

      const outcome = await stripe.charge(request, account);
      const reconciled = await stripe.chargeStatus(request, account);

      expect(outcome).toMatchObject({ kind: 'unknown' });
      expect(reconciled).toEqual({ ...APPROVED_CARD, kind: 'approved', processorReference: simulator.intentOf(request.sessionReference)!.id });
      expect(simulator.intentOf(request.sessionReference)!.status).toBe('succeeded');
    });

    it('a declined confirm whose answer never arrives is reconciled as that decline', async () => {
      const request = chargeOf('4000000000009995');
      simulator.injectFault({ operation: 'confirm', kind: 'delay' });

      expect(await stripe.charge(request, account)).toMatchObject({ kind: 'unknown' });
      expect(await stripe.chargeStatus(request, account)).toMatchObject({ kind: 'declined', code: 'insufficient_funds' });
    });

    it('a status read finds nothing for an attempt that never reached Stripe', async () => {
      const request = chargeOf('4242424242424242');
      await stripe.openPayment!(request, account);

      expect(await stripe.chargeStatus(request, account)).toEqual({ kind: 'not_found' });
    });

    it('a 5xx to the confirm (nothing done) is read back at once: failed, processor_unavailable, nothing charged', async () => {
      const request = chargeOf('4242424242424242');
      simulator.injectFault({ operation: 'confirm', kind: 'server_error' });

      const outcome = await stripe.charge(request, account);

      expect(outcome).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
      expect(simulator.intentOf(request.sessionReference)!.status).toBe('requires_payment_method');
    });

    it('a dropped connection after the confirm was done is read back at once and captured', async () => {
      const request = chargeOf('4242424242424242');
      simulator.injectFault({ operation: 'confirm', kind: 'drop' });

      const outcome = await stripe.charge(request, account);

      expect(outcome).toEqual({ ...APPROVED_CARD, kind: 'approved', processorReference: simulator.intentOf(request.sessionReference)!.id });
    });

    it('a capture whose connection drops is repeated under the same key and answered from Stripe\'s record', async () => {
      const request = chargeOf('4242424242424242');
      simulator.injectFault({ operation: 'capture', kind: 'drop' });

      const outcome = await stripe.charge(request, account);

      const intent = simulator.intentOf(request.sessionReference)!;
      expect(outcome).toEqual({ ...APPROVED_CARD, kind: 'approved', processorReference: intent.id });
      expect(simulator.calls({ path: `/v1/payment_intents/${intent.id}/capture` }).map((c) => c.idempotencyKey)).toEqual([
        `svc-${request.transactionReference}-capture`,
        `svc-${request.transactionReference}-capture`,
      ]);
    });

    it('Stripe down when the intent is created: failed, processor_unavailable, no card sent', async () => {
      const request = chargeOf('4242424242424242');
      simulator.injectFault({ operation: 'create_intent', kind: 'server_error', times: 3 });

      expect(await stripe.charge(request, account)).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
      expect(simulator.intentOf(request.sessionReference)).toBeNull();
    });

    it('an amount Stripe refuses fails with Stripe\'s code; a key of the other mode fails before any call', async () => {
      const small = chargeOf('4242424242424242', { amountMinor: 49 });
      const calls = simulator.calls().length;

      expect(await stripe.charge(small, account)).toMatchObject({ kind: 'failed', code: 'amount_too_small' });
      expect(await stripe.charge(chargeOf('4242424242424242'), { environment: 'live', credentials: account.credentials })).toMatchObject({ kind: 'failed', code: 'stripe_credentials_invalid' });
      expect(simulator.calls().length).toBe(calls + 1);
    });

    it('has no OTP step and charges no stored card without the buyer', async () => {
      await expect(stripe.verifyOtp(refs(), '123456', account)).rejects.toBeInstanceOf(GatewayUnavailableError);
      expect(await stripe.authorize(refs(), account)).toMatchObject({ kind: 'failed', code: 'stripe_not_supported' });
      expect(await stripe.charge(chargeOf('4242424242424242', { merchantInitiated: true }), account)).toMatchObject({ kind: 'failed', code: 'stripe_not_supported' });
    });
  });

  describe('idempotency at the simulator', () => {
    const post = (key: string, body: string) =>
      fetch(`${simulator.url}/v1/payment_intents`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${TEST_KEY}:`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
        body,
      });

    it('replays the same key with the same parameters and refuses other parameters with idempotency_error', async () => {
      const key = `idem-${Date.now()}`;
      const first = await post(key, 'amount=2500&currency=usd&capture_method=manual');
      const again = await post(key, 'amount=2500&currency=usd&capture_method=manual');
      const other = await post(key, 'amount=2600&currency=usd&capture_method=manual');

      const [a, b, c] = await Promise.all([first.json(), again.json(), other.json()]);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((b as { id: string }).id).toBe((a as { id: string }).id);
      expect(other.status).toBe(400);
      expect(c).toMatchObject({ error: { type: 'idempotency_error' } });
    });

    it('refuses an unknown parameter and a missing key, as Stripe does', async () => {
      const unknown = await post(`idem-u-${Date.now()}`, 'amount=2500&currency=usd&payment_method_types[0]=card');
      const anonymous = await fetch(`${simulator.url}/v1/payment_intents/pi_x`);

      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'parameter_unknown', param: 'payment_method_types' } });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('refunds', () => {
    it('refunds part, then the rest; more than remains fails with Stripe\'s code; a repeat answers the same refund', async () => {
      const request = chargeOf('4242424242424242');
      const charged = await stripe.charge(request, account);
      const processorReference = charged.kind === 'approved' ? charged.processorReference : null;
      const refund = (refundReference: string, amountMinor: number) => ({ ...request, refundReference, amountMinor, currency: 'USD' as const, processorReference });

      const part = await stripe.refund(refund(`rfd_a_${request.transactionReference}`, 1000), account);
      const repeat = await stripe.refund(refund(`rfd_a_${request.transactionReference}`, 1000), account);
      const tooMuch = await stripe.refund(refund(`rfd_b_${request.transactionReference}`, 1600), account);
      const rest = await stripe.refund(refund(`rfd_c_${request.transactionReference}`, 1500), account);
      const status = await stripe.refundStatus(refund(`rfd_a_${request.transactionReference}`, 1000), account);

      expect(part).toMatchObject({ kind: 'succeeded', processorReference: expect.stringMatching(/^re_/) });
      expect(repeat).toEqual(part);
      expect(tooMuch).toMatchObject({ kind: 'failed', code: 'amount_too_large' });
      expect(rest).toMatchObject({ kind: 'succeeded' });
      expect(status).toEqual(part);
      expect(simulator.calls({ operation: 'create_refund' }).filter((c) => c.params.payment_intent === processorReference)[0]).toMatchObject({
        idempotencyKey: `svc-rfd_a_${request.transactionReference}-refund`,
        params: { payment_intent: processorReference, amount: '1000', metadata: { svc_refund: `rfd_a_${request.transactionReference}`, svc_transaction: request.transactionReference } },
      });
    });

    it('finds the intent by the session when the caller has no processor reference; a refund whose answer is lost is read back', async () => {
      const request = chargeOf('4242424242424242');
      await stripe.charge(request, account);
      const refund = { ...request, refundReference: `rfd_${request.transactionReference}`, amountMinor: 2500, currency: 'USD' as const };
      simulator.injectFault({ operation: 'create_refund', kind: 'delay' });

      const lost = await stripe.refund(refund, account);
      const read = await stripe.refundStatus(refund, account);

      expect(lost).toMatchObject({ kind: 'unknown' });
      expect(read).toMatchObject({ kind: 'succeeded' });
    });

    it('a 5xx to the refund (nothing done) is read back: failed, processor_unavailable; a refund of an uncaptured intent fails', async () => {
      const request = chargeOf('4242424242424242');
      await stripe.charge(request, account);
      simulator.injectFault({ operation: 'create_refund', kind: 'server_error' });
      const opened = chargeOf('4242424242424242');
      await stripe.openPayment!(opened, account);

      const down = await stripe.refund({ ...request, refundReference: `rfd_${request.transactionReference}`, amountMinor: 100, currency: 'USD' }, account);
      const uncaptured = await stripe.refund({ ...opened, refundReference: `rfd_${opened.transactionReference}`, amountMinor: 100, currency: 'USD' }, account);

      expect(down).toMatchObject({ kind: 'failed', code: 'processor_unavailable' });
      expect(uncaptured).toMatchObject({ kind: 'failed', code: 'charge_not_refundable' });
    });
  });

  describe('cancelling the session payment', () => {
    const pending = (request: ChargeRequest) => ({ sessionReference: request.sessionReference, amountMinor: request.amountMinor, currency: request.currency });

    it('cancels an open intent (abandoned) and answers cancelled again on a repeat', async () => {
      const request = chargeOf('4242424242424242');
      await stripe.openPayment!(request, account);

      const first = await stripe.cancelPayment(request.sessionReference, account, pending(request));
      const again = await stripe.cancelPayment(request.sessionReference, account, pending(request));

      expect([first, again]).toEqual(['cancelled', 'cancelled']);
      expect(simulator.intentOf(request.sessionReference)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
      expect(await stripe.charge(request, account)).toMatchObject({ kind: 'failed', code: 'payment_cancelled' });
    });

    it('finds the intent by search when the amount is not given', async () => {
      const request = chargeOf('4242424242424242');
      await stripe.openPayment!(request, account);

      expect(await stripe.cancelPayment(request.sessionReference, account)).toBe('cancelled');
      expect(await stripe.cancelPayment(chargeOf('4242424242424242').sessionReference, account)).toBe('not_found');
    });

    it('answers already_charged when Stripe captured it, and when it was paid outside the connector', async () => {
      const paid = chargeOf('4242424242424242');
      await stripe.charge(paid, account);
      const outside = chargeOf('4242424242424242');
      await stripe.openPayment!(outside, account);
      simulator.markIntentSucceeded(outside.sessionReference);

      expect(await stripe.cancelPayment(paid.sessionReference, account, pending(paid))).toBe('already_charged');
      expect(await stripe.cancelPayment(outside.sessionReference, account, pending(outside))).toBe('already_charged');
      expect(await stripe.openPayment!(outside, account)).toBe('charged');
    });

    it('throws GatewayUnavailableError when Stripe cannot answer, and changes nothing', async () => {
      const request = chargeOf('4242424242424242');
      await stripe.openPayment!(request, account);
      simulator.injectFault({ operation: 'cancel', kind: 'server_error', times: 3 });

      await expect(stripe.cancelPayment(request.sessionReference, account, pending(request))).rejects.toBeInstanceOf(GatewayUnavailableError);
      expect(simulator.intentOf(request.sessionReference)!.status).toBe('requires_payment_method');
    });

    it('has nothing to cancel without a loaded key', async () => {
      expect(await stripe.cancelPayment('ses_none', { environment: 'test', credentials: null })).toBe('not_found');
    });
  });
});
