import { randomUUID } from 'node:crypto';
import type { SvcClient } from '../../../shared/client/index.ts';
import { LISTEN_DESCRIPTION } from './listen.ts';

/** The sandbox bank's test cards (docs/payments.md, "Test cards"). */
const CARDS = { approved: '4111111111111111', declined: '4000000000000002', failed: '4000000000000119' } as const;

interface Context {
  svc: SvcClient;
  apiUrl: string;
}

/**
 * Each event type and the real objects that make the API emit it: a test-mode session paid through the checkout
 * API as a buyer would, expired, refunded, a card stored and deleted. Nothing here is a sample but webhook.test.
 */
export const TRIGGERS = {
  'charge.approved': async (ctx: Context) => (await pay(ctx, CARDS.approved)).text,
  'charge.declined': async (ctx: Context) => (await pay(ctx, CARDS.declined)).text,
  'charge.failed': async (ctx: Context) => (await pay(ctx, CARDS.failed)).text,
  'session.expired': async ({ svc }: Context) => {
    const session = await svc.sessions.create({ amountMinor: 1050, currency: 'VES', description: 'svc trigger session.expired' });
    await svc.sessions.expire(session.reference);
    return `session ${session.reference} expired`;
  },
  'charge.refunded': async (ctx: Context) => {
    const { transactionReference } = await payOrFail(ctx, CARDS.approved);
    const refund = await ctx.svc.refunds.create(transactionReference, {});
    return `refund ${refund.reference} of ${transactionReference} (${refund.status})`;
  },
  'card.stored': async (ctx: Context) => {
    const customerRef = `svc_trigger_${randomUUID().slice(0, 8)}`;
    await payOrFail(ctx, CARDS.approved, customerRef);
    const [card] = await ctx.svc.cards.list({ customerRef });
    return `card ${card?.svcToken ?? '(none stored)'} stored for ${customerRef}`;
  },
  'card.deleted': async (ctx: Context) => {
    const customerRef = `svc_trigger_${randomUUID().slice(0, 8)}`;
    await payOrFail(ctx, CARDS.approved, customerRef);
    const [card] = await ctx.svc.cards.list({ customerRef });
    if (!card) throw new Error(`no card was stored for ${customerRef}`);
    await ctx.svc.cards.delete(card.svcToken);
    return `card ${card.svcToken} stored and deleted`;
  },
  'webhook.test': async ({ svc }: Context) => {
    const endpoints = (await svc.webhookEndpoints.list({ limit: 100 })).data;
    const endpoint = endpoints.find((e) => e.description === LISTEN_DESCRIPTION) ?? endpoints[0];
    if (!endpoint) throw new Error('no webhook endpoint: run svc listen first');
    const sent = await svc.webhookEndpoints.test(endpoint.id);
    return `webhook.test ${sent.eventId} sent to ${endpoint.id}`;
  },
} as const;

export async function trigger(type: keyof typeof TRIGGERS, ctx: Context): Promise<void> {
  console.log(`Triggered ${type}: ${await TRIGGERS[type](ctx)}`);
}

/** A session paid through the checkout API with that card, as the buyer's browser does. */
async function pay({ svc, apiUrl }: Context, number: string, customerRef?: string) {
  const session = await svc.sessions.create({ amountMinor: 1050, currency: 'VES', description: 'svc trigger', ...(customerRef ? { customerRef } : {}) });
  const res = await fetch(`${apiUrl.replace(/\/+$/, '')}/v1/checkout/charge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      sessionReference: session.reference,
      card: { number, expMonth: 12, expYear: 2030, cvv: '123', holderName: 'Ana Pérez' },
      document: { type: 'V', id: '12.345.678' },
    }),
  });
  // The answer carries the transaction (reference, status), or is the API's error shape (code).
  const answer = (await res.json()) as { transaction?: { reference: string; status: string }; code?: string };
  const outcome = answer.transaction ? `${answer.transaction.reference} ${answer.transaction.status}` : answer.code;
  return { transaction: answer.transaction, text: `session ${session.reference} paid with ${number.slice(0, 6)}...: ${res.status} ${outcome}` };
}

async function payOrFail(ctx: Context, number: string, customerRef?: string) {
  const paid = await pay(ctx, number, customerRef);
  if (paid.transaction?.status !== 'approved') throw new Error(`the payment was not approved: ${paid.text}`);
  return { transactionReference: paid.transaction.reference };
}
