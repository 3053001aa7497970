import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, type EventEnvelope, type EventType } from '../../shared/domain/events.ts';
import { SAMPLE_REFERENCES, sampleEvent } from '../../shared/domain/sample-events.ts';
import { authenticationExpiredEvent, authenticationExpiringEvent, cardDeletedEvent, cardStoredEvent, type StoredCard } from '../../shared/domain/stored-card.ts';
import { verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { card, checkoutCharge, eventsOf, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';

/** Field names with the JSON type of each value: what a receiver's parser depends on. */
const shapeOf = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value]).sort());

const withoutSample = ({ sample, ...data }: Record<string, unknown>) => {
  expect(sample).toBe(true);
  return data;
};

/** A stored card as the vault writes it, for the card events the card flows emit. */
const realCard = (status: 'active' | 'requires_authentication'): StoredCard => ({
  id: 'c1', svcToken: 'tok_svc_real', merchantId: 'mer_1', mode: 'test', status: 'active', customerRef: 'cus_1', gateway: 'bank_otp',
  brand: 'mastercard', lastFour: '4444', expMonth: 1, expYear: 2031, holderName: null, documentType: null, documentId: null,
  vaultRef: 'v', encryptedNumber: 'e', fingerprint: 'f', createdAt: '2026-01-01T00:00:00.000Z', deletedAt: null,
  gatewayAuthStatus: status, gatewayAuthenticatedAt: '2026-01-01T00:00:00.000Z', gatewayAuthExpiresAt: '2026-04-01T00:00:00.000Z', authNoticesSent: [], version: 1,
});

describe('sample events', () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  const real = new Map<EventType, EventEnvelope>();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startReceiver();
    const { merchant, keys } = await sandbox.newMerchant();
    const sk = keys.secretTest;
    const collect = async (reference: string) => {
      for (const event of await eventsOf(sandbox, merchant.id, 'test', reference)) real.set(event.type, event);
    };
    const pay = async (number: string) => {
      const session = await openSession(sandbox, sk);
      const res = await checkoutCharge(sandbox, session.reference, { card: card(number) });
      return { session, res };
    };
    const refund = async (number: string) => {
      const { session, res } = await pay(number);
      await sandbox.request('POST', `/v1/transactions/${res.body.transaction.reference}/refunds`, { key: sk, body: { reason: 'requested_by_customer' }, headers: { 'idempotency-key': `refund-${res.body.transaction.reference}` } });
      await collect(session.reference);
    };
    await refund(TEST_CARDS.visa);
    // Its refunds fail at the bank (docs/payments.md: test cards).
    await refund('4000000000005126');
    await collect((await pay(TEST_CARDS.insufficientFunds)).session.reference);
    await collect((await pay(TEST_CARDS.processorError)).session.reference);
    const otp = await pay(TEST_CARDS.otp);
    await sandbox.request('POST', '/v1/checkout/otp', { body: { sessionReference: otp.session.reference, transactionReference: otp.res.body.transaction.reference, code: '123456' } });
    await collect(otp.session.reference);
    const closed = await openSession(sandbox, sk);
    await sandbox.request('POST', `/v1/sessions/${closed.reference}/expire`, { key: sk });
    await collect(closed.reference);
    const endpoint = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: sk, body: { url: `${receiver.url}/real` } });
    await sandbox.request('POST', `/v1/webhooks/endpoints/${endpoint.body.id}/test`, { key: sk });
    await sandbox.background.drain();
    const delivered = receiver.received.map((r) => JSON.parse(r.rawBody) as EventEnvelope).find((e) => e.type === 'webhook.test')!;
    real.set('webhook.test', { ...delivered, data: { ...delivered.data, sample: undefined } });
    // The card flows' own builders, fed a card as the vault stores it.
    const at = '2026-02-01T00:00:00.000Z';
    real.set('card.stored', cardStoredEvent(realCard('active'), at));
    real.set('card.deleted', cardDeletedEvent({ ...realCard('active'), status: 'deleted' }, at));
    real.set('card.authentication_expiring', authenticationExpiringEvent(realCard('active'), 15, at));
    real.set('card.authentication_expired', authenticationExpiredEvent(realCard('requires_authentication'), 'txn_real', at));
  });
  afterAll(async () => {
    await sandbox.stop();
    await receiver.close();
  });

  it('has a real event to compare with for every event type', () => {
    expect([...real.keys()].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it.each(EVENT_TYPES.map((type) => [type]))('%s: the real data fields, types and nulls, plus sample: true', (type) => {
    const sample = sampleEvent(type, { mode: 'test', now: Date.parse('2026-03-01T00:00:00Z'), endpointId: 'we_sample' });
    const actual = real.get(type)!;
    expect(sample).toEqual({ id: expect.stringMatching(/^evt_/), type, createdAt: '2026-03-01T00:00:00.000Z', env: 'test', data: expect.any(Object) });
    const { sample: _ignored, ...actualData } = actual.data as Record<string, unknown>;
    expect(shapeOf(withoutSample(sample.data))).toEqual(shapeOf(Object.fromEntries(Object.entries(actualData).filter(([, v]) => v !== undefined))));
  });

  it('uses obviously false references', () => {
    const data = (type: EventType) => sampleEvent(type, { mode: 'live', now: 0, endpointId: 'we_1' }).data;
    expect(data('charge.approved')).toMatchObject({ transactionReference: SAMPLE_REFERENCES.transaction, sessionReference: SAMPLE_REFERENCES.session, declineReason: null, errorCode: null });
    expect(data('charge.declined')).toMatchObject({ errorCode: '0051', processorReference: null });
    expect(data('card.stored')).toMatchObject({ svcToken: SAMPLE_REFERENCES.svcToken });
    for (const type of EVENT_TYPES) {
      for (const value of Object.values(data(type))) if (typeof value === 'string' && /^(txn|cs|tok_svc|ref)_/.test(value)) expect(value).toMatch(/^(txn|cs|tok_svc|ref)_sample/);
    }
  });

  it('POST /v1/webhooks/endpoints/{id}/test?type= delivers a signed sample of that type', async () => {
    const { keys } = await sandbox.newMerchant();
    const endpoint = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${receiver.url}/samples` } });
    const sent = await sandbox.request('POST', `/v1/webhooks/endpoints/${endpoint.body.id}/test?type=charge.approved`, { key: keys.secretTest });
    expect(sent.status).toBe(202);
    const refund = await sandbox.request('POST', `/v1/webhooks/endpoints/${endpoint.body.id}/test?type=charge.refunded`, { key: keys.secretTest });
    expect(refund.status).toBe(202);
    const refused = await sandbox.request('POST', `/v1/webhooks/endpoints/${endpoint.body.id}/test?type=charge.captured`, { key: keys.secretTest });
    expect(refused.body).toMatchObject({ statusCode: 400, code: 'parameter_invalid', field: 'query.type' });
    await sandbox.background.drain();
    const requests = receiver.received.filter((r) => r.path === '/samples');
    for (const request of requests) expect(verifyWebhookSignature({ header: request.headers['svc-signature'] as string, rawBody: request.rawBody, secret: endpoint.body.secret }).valid).toBe(true);
    const events = requests.map((r) => JSON.parse(r.rawBody));
    expect(events.find((e) => e.id === sent.body.eventId)).toMatchObject({ type: 'charge.approved', data: { sample: true, status: 'approved', transactionReference: SAMPLE_REFERENCES.transaction } });
    expect(events.find((e) => e.id === refund.body.eventId)).toMatchObject({
      type: 'charge.refunded',
      data: { sample: true, status: 'succeeded', refundReference: SAMPLE_REFERENCES.refund, transactionReference: SAMPLE_REFERENCES.transaction, amountRefundedMinor: 500 },
    });
  });
});
