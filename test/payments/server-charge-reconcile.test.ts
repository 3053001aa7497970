import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionDetailSchema } from '../../shared/schemas/transaction-responses.ts';
import { TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';
import { diedCharge, otpMerchant, payWithOtp, serverCharge, storedCard } from '../support/stored-card-charges.ts';

/** Deadline of one bank call: the timeout card's answer, held by the sandbox bank, misses it quickly. */
const GATEWAY_TIMEOUT_MS = 300;

const events = (trace: { event: string }[]) => trace.map((t) => t.event);

/** A live OTP-bank merchant whose customer stored the timeout card, and a server charge of it the bank left unanswered. */
async function unansweredCharge(sandbox: TestSandbox, idempotencyKey = randomUUID()) {
  const { merchant, keys } = await otpMerchant(sandbox);
  await payWithOtp(sandbox, keys.secretLive, 'cust_late', TEST_CARDS.timeout);
  const stored = await storedCard(sandbox, keys.secretLive, 'cust_late');
  const posted = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken }, idempotencyKey);
  expect(posted.status).toBe(202);
  expect(posted.body).toMatchObject({ status: 'pending', svcToken: stored.svcToken, sessionReference: null });
  return { merchant, keys, stored, posted, reference: posted.body.reference as string };
}

const chargeEventsOf = async (sandbox: TestSandbox, merchantId: string, reference: string) =>
  (await sandbox.deps.outbox.listForMerchant(merchantId, 'live')).map((e) => e.envelope).filter((e) => e.type.startsWith('charge.') && e.data.transactionReference === reference);

describe('GET /v1/transactions/{reference} settles a server-to-server charge the bank left pending', () => {
  const env = sandboxWithReceiver({ gatewayTimeoutMs: GATEWAY_TIMEOUT_MS });

  it('asks the bank after 60 s, settles it once from its record and announces it once; the POST replay still answers 202', async () => {
    const { sandbox, receiver } = env;
    const key = randomUUID();
    const { merchant, keys, stored, posted, reference } = await unansweredCharge(sandbox, key);
    await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretLive, body: { url: `${receiver.url}/late`, enabledEvents: ['charge.approved'] } });
    const delivered = async () => {
      await sandbox.background.drain();
      return receiver.received.filter((r) => r.path === '/late').map((r) => JSON.parse(r.rawBody)).filter((e) => e.data.transactionReference === reference);
    };

    const early = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretLive });
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ status: 'pending', processorReference: null });
    expect(events(early.body.trace)).toEqual(['created', 'bank_no_answer']);
    expect(sandbox.bank.calls({ reference, operation: 'status' })).toEqual([]);
    expect(await delivered()).toEqual([]);

    sandbox.advance(60);
    const settled = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretLive });
    // A read-only key reads it too, and reading again changes nothing.
    const again = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.restrictedLive });

    expect(settled.status).toBe(200);
    expect(TransactionDetailSchema.safeParse(settled.body).success).toBe(true);
    expect(settled.body).toMatchObject({ reference, status: 'approved', processorReference: expect.stringMatching(/^AUTH/), sessionReference: null, errorCode: null });
    expect(events(settled.body.trace)).toEqual(['created', 'bank_no_answer', 'reconciled', 'approved']);
    expect(again.body).toEqual(settled.body);
    expect(sandbox.bank.calls({ reference }).map((c) => c.operation)).toEqual(['charge', 'status']);
    const announced = await delivered();
    expect(announced.map((e) => e.type)).toEqual(['charge.approved']);
    expect(announced[0].data).toMatchObject({ transactionReference: reference, status: 'approved', processorReference: settled.body.processorReference, svcToken: stored.svcToken });
    expect((await chargeEventsOf(sandbox, merchant.id, reference)).map((e) => e.type)).toEqual(['charge.approved']);

    const replay = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken }, key);
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(posted.body);
    expect(sandbox.bank.calls({ reference, operation: 'charge' })).toHaveLength(1);
  });

  it('settles it once when two reads race, both answering the one result', async () => {
    const { sandbox } = env;
    const { merchant, keys, reference } = await unansweredCharge(sandbox);
    sandbox.advance(60);

    const reads = await Promise.all([1, 2].map(() => sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretLive })));

    expect(reads.map((r) => r.status)).toEqual([200, 200]);
    expect(reads[0]!.body).toMatchObject({ status: 'approved' });
    expect(reads[1]!.body).toEqual(reads[0]!.body);
    expect(events(reads[0]!.body.trace)).toEqual(['created', 'bank_no_answer', 'reconciled', 'approved']);
    expect((await chargeEventsOf(sandbox, merchant.id, reference)).map((e) => e.type)).toEqual(['charge.approved']);
  });

  it('fails a charge whose request died before reaching the bank, and a retry of that request answers it without charging', async () => {
    const { sandbox } = env;
    const { merchant, keys } = await otpMerchant(sandbox);
    await payWithOtp(sandbox, keys.secretLive, 'cust_died');
    const stored = await storedCard(sandbox, keys.secretLive, 'cust_died');
    const key = randomUUID();
    const died = await diedCharge(sandbox, merchant.id, stored.svcToken, key);

    sandbox.advance(61);
    const read = await sandbox.request('GET', `/v1/transactions/${died.reference}`, { key: keys.secretLive });
    const retried = await serverCharge(sandbox, keys.secretLive, { svcToken: stored.svcToken }, key);

    expect(read.body).toMatchObject({ status: 'failed', errorCode: 'processor_unavailable' });
    expect(events(read.body.trace)).toEqual(['created', 'reconciled', 'failed']);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ reference: died.reference, status: 'failed', errorCode: 'processor_unavailable', svcToken: stored.svcToken });
    expect(sandbox.bank.calls({ reference: died.reference }).map((c) => c.operation)).toEqual(['status']);
    expect((await chargeEventsOf(sandbox, merchant.id, died.reference)).map((e) => e.type)).toEqual(['charge.failed']);
  });
});

describe('GET /v1/transactions/{reference} with the bank unreachable', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ gatewayTimeoutMs: GATEWAY_TIMEOUT_MS });
  });
  afterAll(() => sandbox.stop());

  it('answers the charge pending as it is, writing nothing, while the bank cannot say', async () => {
    const { merchant, keys, reference } = await unansweredCharge(sandbox);
    const before = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretLive });
    sandbox.advance(60);
    await sandbox.bank.close();

    const read = await sandbox.request('GET', `/v1/transactions/${reference}`, { key: keys.secretLive });

    expect(read.status).toBe(200);
    expect(read.body).toEqual(before.body);
    expect(read.body.status).toBe('pending');
    expect(await chargeEventsOf(sandbox, merchant.id, reference)).toEqual([]);
  });
});
