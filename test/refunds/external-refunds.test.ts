import { describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { SIMULATOR_TEST_CREDENTIALS } from '../../shared/connectors/mercantil/credentials.ts';
import { MERCANTIL_TEST_DATA } from '../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { EVENT_SCHEMAS } from '../../shared/schemas/event-schemas.ts';
import { RefundSchema } from '../../shared/schemas/refund-responses.ts';
import { card, checkoutCharge, eventsOf, openSession } from '../support/checkout.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';
import { paidTransaction, refund, REFUND_CARDS } from './support.ts';

const transfer = { method: 'external', external: { channel: 'bank_transfer', reference: '004512398771' } };

describe('POST /v1/transactions/{reference}/refunds with method external (a refund made another way, recorded)', () => {
  const env = sandboxWithReceiver();

  /** A paid test-mode Mercantil credit card payment: the network has no refund. */
  async function mercantilPayment(amountMinor: number) {
    const { sandbox } = env;
    const { merchant, keys } = await sandbox.newMerchant({ changes: { gateways: { VES: 'mercantil', USD: 'card_processor' }, testMode: { mercantil: true } } });
    await loadBankCredentials(sandbox.deps, merchant.id, 'mercantil', JSON.stringify(SIMULATOR_TEST_CREDENTIALS));
    const session = await openSession(sandbox, keys.secretTest, { amountMinor });
    const paid = await checkoutCharge(sandbox, session.reference, { card: card(MERCANTIL_TEST_DATA.credit.cardNumber, { expMonth: 1, expYear: 2025, cvv: '123' }) });
    expect(paid.body.transaction.status).toBe('approved');
    return { merchant, keys, session, reference: paid.body.transaction.reference as string };
  }

  it('records partial then whole external refunds of a Mercantil card payment: no bank call, succeeded at once, charge.refunded marked external', async () => {
    const { sandbox } = env;
    const { merchant, keys, session, reference } = await mercantilPayment(10_000);
    const callsBefore = sandbox.mercantil.calls().length;

    const refused = await refund(sandbox, keys.secretTest, reference);
    const part = await refund(sandbox, keys.secretTest, reference, { ...transfer, amountMinor: 2_500, reason: 'requested_by_customer' });
    const rest = await refund(sandbox, keys.secretTest, reference, { method: 'external', external: { channel: 'pago_movil' } });

    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'refund_unsupported', message: expect.stringContaining('method "external"') });
    expect(part.status).toBe(200);
    expect(RefundSchema.parse(part.body)).toMatchObject({ status: 'succeeded', method: 'external', amountMinor: 2_500, processorReference: null, external: { channel: 'bank_transfer', reference: '004512398771' } });
    expect(rest.body).toMatchObject({ status: 'succeeded', method: 'external', amountMinor: 7_500, external: { channel: 'pago_movil', reference: null } });
    expect(sandbox.mercantil.calls().length).toBe(callsBefore);

    const detail = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ status: 'refunded', amountRefundedMinor: 10_000 });
    expect(detail.body.trace.map((t: { event: string }) => t.event)).toEqual(expect.arrayContaining(['refund_recorded']));
    const list = await sandbox.request('GET', `/v1/transactions/${reference}/refunds`, { key: keys.secretTest });
    expect(list.body.data.map((r: { method: string }) => r.method)).toEqual(['external', 'external']);

    const refunded = (await eventsOf(sandbox, merchant.id, 'test', session.reference)).filter((e) => e.type === 'charge.refunded');
    expect(refunded.map((e) => EVENT_SCHEMAS['charge.refunded'].parse(e).data)).toEqual([
      expect.objectContaining({ method: 'external', external: { channel: 'bank_transfer', reference: '004512398771' }, amountMinor: 2_500, amountRefundedMinor: 2_500, transactionStatus: 'approved' }),
      expect.objectContaining({ method: 'external', external: { channel: 'pago_movil', reference: null }, amountMinor: 7_500, amountRefundedMinor: 10_000, transactionStatus: 'refunded' }),
    ]);
  });

  it.each([
    ['method external without external', { method: 'external' }, 'external'],
    ['external without method', { external: { channel: 'cash' } }, 'external'],
    ['an unknown channel', { method: 'external', external: { channel: 'zelle' } }, 'external.channel'],
    ['a card number as the reference', { method: 'external', external: { channel: 'bank_transfer', reference: '4111111111111111' } }, 'external.reference'],
    ['a reference with spaces', { method: 'external', external: { channel: 'bank_transfer', reference: 'ref 12' } }, 'external.reference'],
    ['an unknown method', { method: 'cash' }, 'method'],
  ])('refuses %s with 400 naming the field, writing nothing', async (_name, body, field) => {
    const { sandbox } = env;
    const { keys, reference } = await mercantilPayment(1_000);
    const answer = await refund(sandbox, keys.secretTest, reference, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, field });
    const list = await sandbox.request('GET', `/v1/transactions/${reference}/refunds`, { key: keys.secretTest });
    expect(list.body.data).toEqual([]);
  });

  it('refuses more than remains with 400 and a fully refunded payment with 409, as for any refund', async () => {
    const { sandbox } = env;
    const { keys, reference } = await mercantilPayment(1_000);
    const over = await refund(sandbox, keys.secretTest, reference, { ...transfer, amountMinor: 1_001 });
    const whole = await refund(sandbox, keys.secretTest, reference, transfer);
    const again = await refund(sandbox, keys.secretTest, reference, { ...transfer, amountMinor: 1 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'refund_amount_exceeds_remaining', field: 'amountMinor' });
    expect(whole.body).toMatchObject({ status: 'succeeded', amountMinor: 1_000 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_refunded');
  });

  it('never records more than was approved when 8 external refunds race; a replayed key answers the same refund', async () => {
    const { sandbox } = env;
    const { keys, reference } = await mercantilPayment(1_000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => refund(sandbox, keys.secretTest, reference, { ...transfer, amountMinor: 300 })));
    expect(answers.map((a) => a.status).every((s) => [200, 400, 409].includes(s))).toBe(true);
    const recorded = answers.filter((a) => a.status === 200);
    expect(recorded).toHaveLength(3);
    const detail = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest });
    expect(detail.body).toMatchObject({ status: 'approved', amountRefundedMinor: 900 });

    const replayed = await refund(sandbox, keys.secretTest, reference, { ...transfer, amountMinor: 100 }, 'same-key-1');
    const again = await refund(sandbox, keys.secretTest, reference, { ...transfer, amountMinor: 100 }, 'same-key-1');
    expect(again.body).toEqual(replayed.body);
    expect((await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretTest })).body.amountRefundedMinor).toBe(1_000);
  });

  it('counts a live external refund in the analytics summary as refunded and as refunded externally', async () => {
    const { sandbox } = env;
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'direct-key' }));
    const from = new Date(sandbox.clock.now()).toISOString();
    const byBank = await paidTransaction(sandbox, keys.secretLive, REFUND_CARDS.succeeds, 1_000);
    const byTransfer = await paidTransaction(sandbox, keys.secretLive, REFUND_CARDS.succeeds, 2_000);
    expect((await refund(sandbox, keys.secretLive, byBank.transaction.reference, { amountMinor: 400 })).body.method).toBe('refund');
    expect((await refund(sandbox, keys.secretLive, byTransfer.transaction.reference, { ...transfer, amountMinor: 700 })).body.method).toBe('external');
    sandbox.advance(1);
    const to = new Date(sandbox.clock.now()).toISOString();

    const summary = await sandbox.request('GET', `/v1/analytics/summary?from=${from}&to=${to}`, { key: keys.secretLive });
    expect(summary.body.byCurrency.find((c: { currency: string }) => c.currency === 'VES')).toMatchObject({ approvedAmountMinor: 3_000, refundedAmountMinor: 1_100, refundedExternallyAmountMinor: 700 });
  });
});
