import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';
import { responseValidator } from './response-validator.ts';

/** Real sandbox answers, checked against the document the same sandbox serves. */
describe('live responses match the OpenAPI document', () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  let problemsOf: ReturnType<typeof responseValidator>;
  let sk: string;
  const checked: string[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startReceiver();
    problemsOf = responseValidator((await sandbox.request('GET', '/v1/openapi.json')).body);
    sk = (await sandbox.newMerchant()).keys.secretTest;
  });
  afterAll(async () => {
    await sandbox.stop();
    await receiver.close();
  });

  /** A request whose answer must be documented (status and body), and have the expected status. */
  async function call(method: string, path: string, options: Parameters<TestSandbox['request']>[2], expected: number): Promise<TestResponse> {
    const res = await sandbox.request(method, path, options);
    expect(res.status, res.text).toBe(expected);
    expect(problemsOf(method, path, res)).toEqual([]);
    checked.push(`${method} ${path.replace(/(cs|txn|we|wd)_[0-9A-Za-z]+/g, '$1_x').split('?')[0]} ${expected}`);
    return res;
  }

  it('sessions: create, get, list, expire', async () => {
    const created = await call('POST', '/v1/sessions', { key: sk, body: { amountMinor: 1050, currency: 'VES', maxFailures: 1, prefill: { documentType: 'V', documentId: '12.345.678' } } }, 201);
    await call('GET', `/v1/sessions/${created.body.reference}`, { key: sk }, 200);
    await call('GET', '/v1/sessions?pageSize=5', { key: sk }, 200);
    await call('POST', `/v1/sessions/${created.body.reference}/expire`, { key: sk }, 200);
  });

  it('checkout: read, approved and declined charges, OTP, transactions, analytics', async () => {
    const paid = await openSession(sandbox, sk);
    await call('GET', `/v1/checkout/sessions/${paid.reference}`, {}, 200);
    const approved = await checkoutCharge(sandbox, paid.reference);
    expect(approved.status).toBe(200);
    expect(problemsOf('POST', '/v1/checkout/charge', approved)).toEqual([]);

    const declined = await checkoutCharge(sandbox, (await openSession(sandbox, sk)).reference, { card: card(TEST_CARDS.insufficientFunds) });
    expect(declined.body.transaction.status).toBe('declined');
    expect(problemsOf('POST', '/v1/checkout/charge', declined)).toEqual([]);

    const otpSession = await openSession(sandbox, sk);
    const pending = await checkoutCharge(sandbox, otpSession.reference, { card: card(TEST_CARDS.otp) });
    expect(pending.status).toBe(202);
    expect(problemsOf('POST', '/v1/checkout/charge', pending)).toEqual([]);
    const otp = { sessionReference: otpSession.reference, transactionReference: pending.body.transaction.reference };
    await call('POST', '/v1/checkout/otp', { body: { ...otp, code: '000000' } }, 422);
    await call('POST', '/v1/checkout/otp', { body: { ...otp, code: '123456' } }, 200);

    await call('GET', '/v1/transactions?pageSize=10', { key: sk }, 200);
    await call('GET', `/v1/transactions/${approved.body.transaction.reference}`, { key: sk }, 200);
    await call('GET', '/v1/analytics/summary?from=2020-01-01T00:00:00Z&to=2100-01-01T00:00:00Z', { key: sk }, 200);
  });

  it('webhooks: endpoints, test event, deliveries, retry, delete', async () => {
    const endpoint = await call('POST', '/v1/webhooks/endpoints', { key: sk, body: { url: `${receiver.url}/hooks`, description: 'shop' } }, 201);
    const id = endpoint.body.id as string;
    await call('GET', '/v1/webhooks/endpoints', { key: sk }, 200);
    await call('GET', `/v1/webhooks/endpoints/${id}`, { key: sk }, 200);
    await call('PATCH', `/v1/webhooks/endpoints/${id}`, { key: sk, body: { authType: 'bearer', authToken: 'tok' } }, 200);
    const test = await call('POST', `/v1/webhooks/endpoints/${id}/test`, { key: sk }, 202);
    await sandbox.background.drain();
    await call('GET', `/v1/webhooks/deliveries?endpointId=${id}`, { key: sk }, 200);
    await call('GET', `/v1/webhooks/deliveries/${test.body.deliveryId}`, { key: sk }, 200);
    await call('POST', `/v1/webhooks/deliveries/${test.body.deliveryId}/retry`, { key: sk }, 202);
    await call('DELETE', `/v1/webhooks/endpoints/${id}`, { key: sk }, 200);
  });

  it('errors: 400, 401, 403, 404, 409, 410 and 429 in the one documented shape', async () => {
    await call('POST', '/v1/sessions', { key: sk, body: { amountMinor: 0, currency: 'VES' } }, 400);
    await call('GET', '/v1/sessions', {}, 401);
    const { merchant, keys } = await sandbox.newMerchant({ changes: { rateLimits: { reads: { perMinute: 1, perDay: 100 } } } });
    await call('POST', '/v1/sessions', { key: keys.restrictedTest, body: { amountMinor: 100, currency: 'VES' } }, 403);
    await call('GET', '/v1/sessions/cs_doesNotExist', { key: sk }, 404);
    const paid = await openSession(sandbox, sk);
    await checkoutCharge(sandbox, paid.reference);
    await call('POST', `/v1/sessions/${paid.reference}/expire`, { key: sk }, 409);
    const closed = await openSession(sandbox, sk);
    await sandbox.request('POST', `/v1/sessions/${closed.reference}/expire`, { key: sk });
    const gone = await checkoutCharge(sandbox, closed.reference);
    expect(gone.status).toBe(410);
    expect(problemsOf('POST', '/v1/checkout/charge', gone)).toEqual([]);
    expect(merchant.rateLimits.reads?.perMinute).toBe(1);
    await call('GET', '/v1/sessions', { key: keys.secretTest }, 200);
    const limited = await call('GET', '/v1/sessions', { key: keys.secretTest }, 429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('catches an answer that breaks the document (the check itself can fail)', async () => {
    const res = await sandbox.request('GET', '/v1/sessions', { key: sk });
    expect(problemsOf('GET', '/v1/sessions', { status: 200, body: { ...res.body, total: 'many' } })).toEqual([expect.stringContaining('/total must be integer')]);
    expect(problemsOf('GET', '/v1/sessions', { status: 418, body: {} })).toEqual(['GET /v1/sessions answered 418, which is not documented']);
    expect(checked.length).toBeGreaterThan(20);
  });
});
