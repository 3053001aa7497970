import Stripe from 'stripe';
// The SDK's own form encoder, to check ours against (not in the package's exports map, so by path).
import { queryStringifyRequestData } from '../../node_modules/stripe/esm/utils.js';
import { describe, expect, it } from 'vitest';
import { secretKeyFor, stripeCredentialsSchema } from '../../shared/connectors/stripe/credentials.ts';
import { chargeErrorOutcome, refundOutcome, STRIPE_DECLINE_REASONS, stripeDeclineReason } from '../../shared/connectors/stripe/outcomes.ts';
import { cancelParams, captureParams, confirmParams, createIntentParams, formEncode, idempotencyKeys, refundListParams, refundParams, STRIPE_API_VERSION } from '../../shared/connectors/stripe/wire.ts';
import type { PaymentData } from '../../shared/domain/payment-data.ts';
import { GENERIC_DECLINE_REASON } from '../../shared/domain/decline-codes.ts';

const payment: PaymentData = { card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvv: '123', holderName: 'Ana Pérez' }, document: null };
const pairs = (form: string) => [...new URLSearchParams(form)].sort(([a], [b]) => a.localeCompare(b));

describe('Stripe wire format', () => {
  it('pins the API version the stripe package declarations describe', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
  });

  it('creates the session payment pending: manual capture, cards only, USD lowercased, our session on its metadata', () => {
    const params = createIntentParams({ sessionReference: 'ses_abc', amountMinor: 2500, currency: 'USD' });

    expect(params).toEqual({ amount: 2500, currency: 'usd', capture_method: 'manual', allowed_payment_method_types: ['card'], metadata: { svc_session: 'ses_abc' } });
    expect(pairs(formEncode(params))).toEqual([
      ['allowed_payment_method_types[0]', 'card'],
      ['amount', '2500'],
      ['capture_method', 'manual'],
      ['currency', 'usd'],
      ['metadata[svc_session]', 'ses_abc'],
    ]);
  });

  it('confirms with payment_method_data[type]=card and the card hash named as PaymentMethodCreateParams.Card names it', () => {
    const params = confirmParams('txn_1', payment);

    expect(pairs(formEncode(params))).toEqual([
      ['expand[0]', 'payment_method'],
      ['payment_method_data[billing_details][name]', 'Ana Pérez'],
      ['payment_method_data[card][cvc]', '123'],
      ['payment_method_data[card][exp_month]', '12'],
      ['payment_method_data[card][exp_year]', '2034'],
      ['payment_method_data[card][number]', '4242424242424242'],
      ['payment_method_data[metadata][svc_transaction]', 'txn_1'],
      ['payment_method_data[type]', 'card'],
    ]);
  });

  it('captures the whole authorisation, cancels as abandoned, refunds part of an intent, lists its refunds', () => {
    expect(captureParams('txn_1')).toEqual({ metadata: { svc_transaction: 'txn_1' }, expand: ['latest_charge'] });
    expect(cancelParams()).toEqual({ cancellation_reason: 'abandoned' });
    expect(refundParams('pi_1', { refundReference: 'rfd_1', transactionReference: 'txn_1', amountMinor: 700 })).toEqual({
      payment_intent: 'pi_1',
      amount: 700,
      metadata: { svc_refund: 'rfd_1', svc_transaction: 'txn_1' },
    });
    expect(formEncode(refundListParams('pi_1'))).toBe('payment_intent=pi_1&limit=100');
  });

  it('encodes exactly as the official SDK does (same pairs; brackets percent-encoded, which Stripe reads alike)', () => {
    const samples: object[] = [
      createIntentParams({ sessionReference: 'ses_ä ü&=+', amountMinor: 2500, currency: 'USD' }),
      confirmParams('txn_1', { ...payment, card: { ...payment.card, holderName: "O'Brien (Jr.) *!" } }),
      refundParams('pi_1', { refundReference: 'rfd_1', transactionReference: 'txn_1', amountMinor: 1 }),
      { expand: ['a', 'b'], metadata: { empty: '' }, nested: { list: [{ x: 1 }, { x: true }] } },
    ];
    for (const sample of samples) {
      expect(pairs(formEncode(sample))).toEqual(pairs(queryStringifyRequestData(sample)));
    }
  });

  it('derives every Idempotency-Key from our reference, one per operation, within Stripe\'s 255 characters', () => {
    const all = [idempotencyKeys.open('ses_1'), idempotencyKeys.cancel('ses_1'), idempotencyKeys.confirm('txn_1'), idempotencyKeys.capture('txn_1'), idempotencyKeys.refund('rfd_1')];

    expect(new Set(all).size).toBe(all.length);
    expect(idempotencyKeys.open('ses_1')).toBe(idempotencyKeys.open('ses_1'));
    expect(all.every((key) => key.length <= 255 && /ses_1|txn_1|rfd_1/.test(key))).toBe(true);
  });
});

describe('Stripe credentials', () => {
  it('names the missing or invalid field when loaded', () => {
    const missing = stripeCredentialsSchema.safeParse({});
    const wrong = stripeCredentialsSchema.safeParse({ secretKey: 'pk_live_1234567890' });
    const extra = stripeCredentialsSchema.safeParse({ secretKey: 'sk_live_1234567890', apiKey: 'x' });
    const badTest = stripeCredentialsSchema.safeParse({ secretKey: 'sk_live_1234567890', testSecretKey: 'sk_live_1234567890' });

    expect(missing.error?.issues[0]).toMatchObject({ path: ['secretKey'] });
    expect(missing.error?.issues[0]?.message).toMatch(/secretKey is required/);
    expect(wrong.error?.issues[0]).toMatchObject({ path: ['secretKey'], message: expect.stringMatching(/sk_live_\.\.\. or sk_test_/) });
    expect(extra.success).toBe(false);
    expect(badTest.error?.issues[0]).toMatchObject({ path: ['testSecretKey'] });
    expect(stripeCredentialsSchema.parse({ secretKey: 'sk_test_1234567890' })).toEqual({ secretKey: 'sk_test_1234567890' });
  });

  it('gives a test account only an sk_test_ key and a live one only an sk_live_ key', () => {
    const both = JSON.stringify({ secretKey: 'sk_live_aaaaaaaa11', testSecretKey: 'sk_test_bbbbbbbb22' });
    const testOnly = JSON.stringify({ secretKey: 'sk_test_bbbbbbbb22' });

    expect(secretKeyFor({ environment: 'live', credentials: both })).toBe('sk_live_aaaaaaaa11');
    expect(secretKeyFor({ environment: 'test', credentials: both })).toBe('sk_test_bbbbbbbb22');
    expect(secretKeyFor({ environment: 'test', credentials: testOnly })).toBe('sk_test_bbbbbbbb22');
    expect(() => secretKeyFor({ environment: 'live', credentials: testOnly })).toThrow(/needs a sk_live_/);
    expect(() => secretKeyFor({ environment: 'test', credentials: JSON.stringify({ secretKey: 'sk_live_aaaaaaaa11' }) })).toThrow(/needs a sk_test_/);
    expect(() => secretKeyFor({ environment: 'test', credentials: null })).toThrow(/No Stripe secret key/);
  });
});

describe('Stripe answers as outcomes', () => {
  it('maps card_error to declined with decline_code first, Stripe\'s message as detail and a Spanish reason', () => {
    const funds = chargeErrorOutcome(402, { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' });
    const cvc = chargeErrorOutcome(402, { type: 'card_error', code: 'incorrect_cvc', message: "Your card's security code is incorrect." });
    const lost = chargeErrorOutcome(402, { type: 'card_error', code: 'card_declined', decline_code: 'lost_card', message: 'Your card was declined.' });

    expect(funds).toEqual({ kind: 'declined', code: 'insufficient_funds', detail: 'Your card has insufficient funds.', reason: 'La tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.' });
    expect(cvc).toMatchObject({ kind: 'declined', code: 'incorrect_cvc', reason: expect.stringMatching(/código de seguridad/) });
    // A lost or stolen card gets the generic sentence: the page tells a fraudster nothing.
    expect(lost.reason).toBe(stripeDeclineReason('generic_decline', 'declined'));
  });

  it('maps an issuer\'s "try again" and every non-card error to failed', () => {
    expect(chargeErrorOutcome(402, { type: 'card_error', code: 'processing_error', message: 'An error occurred.' })).toMatchObject({ kind: 'failed', code: 'processing_error' });
    expect(chargeErrorOutcome(400, { type: 'invalid_request_error', code: 'amount_too_small', message: 'Amount must be at least $0.50 usd' })).toMatchObject({ kind: 'failed', code: 'amount_too_small' });
    expect(chargeErrorOutcome(400, { type: 'idempotency_error', message: 'Keys for idempotent requests...' })).toMatchObject({ kind: 'failed', code: 'idempotency_error' });
    expect(chargeErrorOutcome(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' })).toMatchObject({ kind: 'failed', code: 'stripe_authentication_failed' });
    expect(chargeErrorOutcome(429, { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' })).toMatchObject({ kind: 'failed', code: 'rate_limit' });
  });

  it('has a Spanish sentence for every code the simulator\'s test cards produce, and a fallback per outcome', () => {
    for (const code of ['generic_decline', 'insufficient_funds', 'lost_card', 'stolen_card', 'expired_card', 'incorrect_cvc', 'processing_error', 'incorrect_number', 'authentication_required']) {
      expect(STRIPE_DECLINE_REASONS[code], code).toMatch(/[áéíóúñ]|tarjeta|pago/);
    }
    expect(stripeDeclineReason('something_new', 'declined')).toBe(GENERIC_DECLINE_REASON);
    expect(stripeDeclineReason('something_new', 'failed')).toMatch(/Inténtalo de nuevo/);
  });

  it('maps a refund\'s status', () => {
    const refund = (status: string, failure_reason: string | null = null) => ({ id: 're_1', object: 'refund', status, failure_reason }) as unknown as Stripe.Refund;

    expect(refundOutcome(refund('succeeded'))).toEqual({ kind: 'succeeded', processorReference: 're_1' });
    expect(refundOutcome(refund('pending'))).toEqual({ kind: 'pending' });
    expect(refundOutcome(refund('failed', 'expired_or_canceled_card'))).toMatchObject({ kind: 'failed', code: 'expired_or_canceled_card' });
  });
});
