import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSvcClient, parseWebhookEvent, SvcApiError, WebhookSignatureError, type SvcClient } from '../../shared/client/index.ts';
import { routes } from '../../shared/routes.ts';
import { signatureHeader } from '../../shared/webhooks/signature.ts';
import { checkoutCharge } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.ts';
import { responseValidator } from '../openapi/response-validator.ts';
import { expectDocUrl } from '../support/assertions.ts';

describe('the typed client against the sandbox', () => {
  let sandbox: TestSandbox;
  let receiver: TestReceiver;
  let svc: SvcClient;
  let problemsOf: ReturnType<typeof responseValidator>;
  const calls: { method: string; url: string; problems: string[] }[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startReceiver();
    problemsOf = responseValidator((await sandbox.request('GET', '/v1/openapi.json')).body);
    const { keys } = await sandbox.newMerchant();
    // Every answer the client receives is also checked against the document.
    const checkingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const text = await res.clone().text();
      const url = String(input);
      calls.push({ method: init?.method ?? 'GET', url, problems: problemsOf(init?.method ?? 'GET', url, { status: res.status, body: text ? JSON.parse(text) : undefined }) });
      return res;
    };
    svc = createSvcClient({ baseUrl: `${sandbox.url}/`, secretKey: keys.secretTest, fetch: checkingFetch });
  });
  afterAll(async () => {
    await sandbox.stop();
    await receiver.close();
  });

  it('creates, reads, lists and expires sessions; an Idempotency-Key replays the first answer', async () => {
    const params = { amountMinor: 1050, currency: 'VES', description: 'Pedido 42', maxFailures: 0 } as const;
    const session = await svc.sessions.create(params, { idempotencyKey: 'order-42' });
    expect(session).toMatchObject({ reference: expect.stringMatching(/^cs_/), status: 'created', attemptsRemaining: 1 });
    expect((await svc.sessions.create(params, { idempotencyKey: 'order-42' })).reference).toBe(session.reference);
    expect((await svc.sessions.get(session.reference)).checkoutUrl).toBe(session.checkoutUrl);
    expect((await svc.sessions.list({ pageSize: 1 })).data.map((s) => s.reference)).toEqual([session.reference]);
    expect(await svc.sessions.expire(session.reference)).toMatchObject({ status: 'expired', closedReason: 'merchant_request' });
  });

  it('reads transactions and analytics, refunds, and exports the payments list', async () => {
    const session = await svc.sessions.create({ amountMinor: 2000, currency: 'VES' });
    const paid = await checkoutCharge(sandbox, session.reference);
    const list = await svc.transactions.list({ sessionReference: session.reference, pageSize: 5 });
    expect(list.data.map((t) => t.reference)).toEqual([paid.body.transaction.reference]);
    expect(await svc.transactions.get(paid.body.transaction.reference)).toMatchObject({ status: 'approved', document: { type: 'V', id: '12345678' } });
    const refund = await svc.refunds.create(paid.body.transaction.reference, { amountMinor: 500 }, { idempotencyKey: `refund-${session.reference}` });
    expect(refund).toMatchObject({ status: 'succeeded', amountMinor: 500, transactionReference: paid.body.transaction.reference });
    expect(await svc.refunds.list(paid.body.transaction.reference)).toMatchObject({ data: [refund], amountRefundedMinor: 500 });
    const exported = await svc.payments.export({ query: session.reference });
    expect(exported).toMatchObject({ rows: 1, hasMore: false, nextCursor: null });
    expect(exported.csv).toContain(`,${paid.body.transaction.reference},`);
    const summary = await svc.analytics.summary({ from: '2020-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' });
    expect(summary.approvalRate).toBeNull(); // test transactions are never counted
  });

  it('manages webhook endpoints and deliveries, and its helper verifies what the sandbox sends', async () => {
    const endpoint = await svc.webhookEndpoints.create({ url: `${receiver.url}/client`, enabledEvents: ['charge.approved'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await svc.webhookEndpoints.list()).data.map((e) => e.id)).toContain(endpoint.id);
    expect((await svc.webhookEndpoints.update(endpoint.id, { description: 'shop' })).description).toBe('shop');
    expect((await svc.webhookEndpoints.get(endpoint.id)).description).toBe('shop');
    const test = await svc.webhookEndpoints.test(endpoint.id, { type: 'charge.approved' });
    await sandbox.background.drain();
    // The approved charge of the test before may reach this endpoint too: events are matched when dispatched.
    const request = receiver.received.find((r) => r.path === '/client' && r.rawBody.includes(test.eventId));
    const event = parseWebhookEvent({ rawBody: request!.rawBody, header: request!.headers['svc-signature'], secret: endpoint.secret });
    expect(event).toMatchObject({ id: test.eventId, type: 'charge.approved', data: { sample: true } });
    expect(() => parseWebhookEvent({ rawBody: `${request!.rawBody} `, header: request!.headers['svc-signature'], secret: endpoint.secret })).toThrow(WebhookSignatureError);
    expect((await svc.webhookDeliveries.list({ endpointId: endpoint.id, limit: 5 })).data.map((d) => d.id)).toContain(test.deliveryId);
    expect((await svc.webhookDeliveries.get(test.deliveryId)).state).toBe('succeeded');
    expect((await svc.webhookDeliveries.retry(test.deliveryId)).id).toBe(test.deliveryId);
    expect(await svc.webhookEndpoints.delete(endpoint.id)).toEqual({ id: endpoint.id, deleted: true });
  });

  it('lists and deletes stored cards, and charges them server to server', async () => {
    expect(await svc.cards.list({ customerRef: 'cus_nobody' })).toEqual([]);
    expect(await svc.cards.delete('tok_svc_missing').catch((e: unknown) => e)).toMatchObject({ status: 404, code: 'resource_missing' });
    const charge = await svc.charges.create({ svcToken: 'tok_svc_missing', amountMinor: 1050, currency: 'VES' }, { idempotencyKey: 'charge-1' }).catch((e: unknown) => e);
    expect(charge).toBeInstanceOf(SvcApiError);
  });

  it('throws SvcApiError with the code, field and Retry-After', async () => {
    const p2c = await svc.sessions.submitPagoMovilReference('cs_missing', { reference: '84840003380', bankCode: '0105', phone: '04141234567', paidOn: '2026-01-15' }).catch((e: unknown) => e);
    expect(p2c).toMatchObject({ status: 404, code: 'resource_missing' });
    const missing = await svc.sessions.get('cs_missing').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SvcApiError);
    expect(missing).toMatchObject({ status: 404, code: 'resource_missing', field: 'reference', retryAfterSeconds: null, requestId: expect.stringMatching(/^req_/), docUrl: expectDocUrl('resource_missing'), errors: [] });
    const invalid = await svc.sessions.create({ amountMinor: 0, currency: 'XYZ' as 'VES' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'parameter_invalid', field: 'amountMinor' });
    expect((invalid as SvcApiError).errors.map((e) => e.param)).toEqual(['amountMinor', 'currency']);
    const { keys } = await sandbox.newMerchant({ changes: { rateLimits: { reads: { perMinute: 1, perDay: 10 } } } });
    // maxRetries 0: the 429 itself is under test, not the client's waiting it out (test/sdk/client-retries.test.ts).
    const limited = createSvcClient({ baseUrl: sandbox.url, secretKey: keys.secretTest, maxRetries: 0 });
    await limited.sessions.list();
    expect(await limited.sessions.list().catch((e: unknown) => e)).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    const wrongKey = createSvcClient({ baseUrl: sandbox.url, secretKey: 'sk_test_nope' });
    expect(await wrongKey.sessions.list().catch((e: unknown) => e)).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('verifies a signature made with the secret and rejects a stale one', () => {
    const rawBody = JSON.stringify({ id: 'evt_1', type: 'webhook.test', createdAt: '2026-01-01T00:00:00.000Z', env: 'test', data: {} });
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseWebhookEvent({ rawBody, header: signatureHeader('whsec_x', rawBody, now / 1000), secret: 'whsec_x', now }).id).toBe('evt_1');
    expect(() => parseWebhookEvent({ rawBody, header: signatureHeader('whsec_x', rawBody, now / 1000 - 600), secret: 'whsec_x', now })).toThrow('timestamp_outside_tolerance');
  });

  it('covered every secret-key operation of the manifest, and every answer matched the document', () => {
    expect(calls.flatMap((c) => c.problems)).toEqual([]);
    const covered = new Set(calls.map((c) => `${c.method} ${new URL(c.url).pathname.replace(/\/(cs|txn|we|wd|tok_svc)_[0-9A-Za-z_]+/g, '/{x}')}`));
    const secretRoutes = Object.values(routes).filter((r) => r.auth === 'secret');
    const missing = secretRoutes.filter((r) => !covered.has(`${r.method} ${r.path.replace(/\{\w+\}/g, '{x}')}`)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });
});
