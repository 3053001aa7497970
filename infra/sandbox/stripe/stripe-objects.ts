/**
 * The objects the Stripe simulator answers with, field for field the shape of Stripe's own examples
 * (fixtures3.json of the public stripe/openapi repository: payment_intent, payment_method, refund), and the form body
 * parser.
 * The simulator keeps no card number or CVC: a PaymentMethod holds brand, last four and expiry, as Stripe shows them.
 */
import type Stripe from 'stripe';
import { randomInt } from 'node:crypto';
import { randomToken } from '../../../shared/ids.ts';

export type Intent = Stripe.PaymentIntent;
export type Refund = Stripe.Refund;
export type PaymentMethod = Stripe.PaymentMethod;
export type Charge = Stripe.Charge;

/** Stripe ids: a prefix and 24 characters. */
export const stripeId = (prefix: 'pi' | 'pm' | 'ch' | 're' | 'req'): string => `${prefix}_${randomToken(24).replace(/[^0-9A-Za-z]/g, 'x').slice(0, 24)}`;

export function newIntent(input: { amount: number; currency: string; captureMethod: string; metadata: Record<string, string>; description: string | null; livemode: boolean; created: number }): Intent {
  const id = stripeId('pi');
  return {
    id,
    object: 'payment_intent',
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    allowed_payment_method_types: ['card'],
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: input.captureMethod,
    client_secret: `${id}_secret_${randomToken(25).replace(/[^0-9A-Za-z]/g, 'x')}`,
    confirmation_method: 'automatic',
    created: input.created,
    currency: input.currency,
    customer: null,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: input.livemode,
    managed_payments: { enabled: false },
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  } as unknown as Intent;
}

export function newPaymentMethod(input: { brand: string; last4: string; expMonth: number; expYear: number; name: string | null; metadata: Record<string, string>; livemode: boolean; created: number }): PaymentMethod {
  return {
    id: stripeId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }, email: null, name: input.name, phone: null, tax_id: null },
    card: {
      brand: input.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: input.brand,
      exp_month: input.expMonth,
      exp_year: input.expYear,
      // Stripe's fingerprint identifies a number across its accounts; the simulator, keeping no number, makes one per card.
      fingerprint: randomToken(16).replace(/[^0-9A-Za-z]/g, 'x').slice(0, 16),
      funding: 'credit',
      generated_from: null,
      last4: input.last4,
      networks: { available: [input.brand], preferred: null },
      regulated_status: null,
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: input.created,
    customer: null,
    customer_account: null,
    livemode: input.livemode,
    metadata: input.metadata,
    type: 'card',
  } as unknown as PaymentMethod;
}

/**
 * The charge of an authorised card: what a receipt needs of it (payment_method_details.card). The authorization code
 * is the simulator's own six digits (Stripe returns the issuer's); the funding is the PaymentMethod's.
 */
export function newCharge(input: { id: string; intent: Intent; method: PaymentMethod; created: number }): Charge {
  const card = input.method.card!;
  return {
    id: input.id,
    object: 'charge',
    amount: input.intent.amount,
    amount_captured: 0,
    amount_refunded: 0,
    captured: false,
    created: input.created,
    currency: input.intent.currency,
    livemode: input.intent.livemode,
    metadata: {},
    paid: true,
    payment_intent: input.intent.id,
    payment_method: input.method.id,
    payment_method_details: {
      type: 'card',
      card: {
        amount_authorized: input.intent.amount,
        authorization_code: String(randomInt(1_000_000)).padStart(6, '0'),
        brand: card.brand,
        checks: card.checks,
        country: card.country,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        fingerprint: card.fingerprint,
        funding: card.funding,
        last4: card.last4,
        network: card.brand,
      },
    },
    refunded: false,
    status: 'succeeded',
  } as unknown as Charge;
}

export function newRefund(input: { amount: number; currency: string; charge: string | null; paymentIntent: string; paymentMethod: string | null; reason: string | null; metadata: Record<string, string>; created: number }): Refund {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: input.amount,
    balance_transaction: null,
    charge: input.charge,
    created: input.created,
    currency: input.currency,
    customer: null,
    customer_account: null,
    destination_details: { card: { type: 'refund' }, type: 'card' },
    metadata: input.metadata,
    payment_intent: input.paymentIntent,
    payment_method: input.paymentMethod,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  } as unknown as Refund;
}

export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/**
 * Parses Stripe's bracket-keyed form (`a[b][0]=x`, `expand[]=y`) into nested values; objects whose keys are all
 * indices become arrays. Every leaf stays a string, as Stripe receives it.
 *
 * @example
 * parseForm('amount=2500&metadata[k]=v&expand[0]=payment_method') // { amount: '2500', metadata: { k: 'v' }, expand: ['payment_method'] }
 */
export function parseForm(text: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) continue;
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node: Record<string, FormValue> = root;
    path.forEach((segment, i) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === path.length - 1) node[name] = value;
      else node = (node[name] && typeof node[name] === 'object' && !Array.isArray(node[name]) ? node[name] : (node[name] = {})) as Record<string, FormValue>;
    });
  }
  return arrays(root) as Record<string, FormValue>;
}

function arrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = Object.fromEntries(keys.map((k) => [k, arrays(value[k]!)]));
  const indexed = keys.length > 0 && keys.every((k, i) => k === String(i));
  return indexed ? keys.map((k) => entries[k]!) : entries;
}
