import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { build as buildDispatcher } from '../../functions/workers/dispatch-webhooks.ts';
import { RETRY_DELAYS_SECONDS } from '../../shared/webhooks/retry-schedule.ts';
import { verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';
import { startReceiver, type ReceivedRequest } from '../support/webhook-receiver.ts';

describe('webhook delivery through the sandbox', () => {
  const env = sandboxWithReceiver();

  const verified = (request: ReceivedRequest, secret: string) =>
    verifyWebhookSignature({ header: request.headers['svc-signature'] as string, rawBody: request.rawBody, secret });

  async function merchantWithEndpoint(body: Record<string, unknown> = {}, path = '/hooks') {
    const { merchant, keys } = await env.sandbox.newMerchant();
    const created = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}${path}`, ...body } });
    expect(created.status).toBe(201);
    return { merchant, keys, endpoint: created.body as { id: string; secret: string } };
  }

  const receivedAt = (path: string) => env.receiver.received.filter((r) => r.path === path);

  it('delivers session.expired (merchant_request) signed and verifiable with the helper', async () => {
    const { keys, endpoint } = await merchantWithEndpoint({}, '/expired');
    const session = await env.sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1050, currency: 'VES', maxFailures: 2 } });
    await env.sandbox.request('POST', `/v1/sessions/${session.body.reference}/expire`, { key: keys.secretTest });
    await env.sandbox.background.drain();

    const [request, ...more] = receivedAt('/expired');
    expect(more).toHaveLength(0);
    expect(verified(request!, endpoint.secret)).toEqual({ valid: true, timestamp: expect.any(Number) });
    expect(verified(request!, 'whsec_wrong')).toEqual({ valid: false, reason: 'signature_mismatch' });
    const envelope = JSON.parse(request!.rawBody);
    expect(envelope).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'session.expired',
      createdAt: expect.any(String),
      env: 'test',
      data: { sessionReference: session.body.reference, reason: 'merchant_request', failureCount: 0, maxFailures: 2, metadata: {} },
    });
  });

  it('retries on the documented schedule, then dead-letters, and a manual retry still delivers', async () => {
    const { keys, endpoint } = await merchantWithEndpoint({}, '/flaky');
    env.receiver.failNext(500, 500, 500, 500, 500, 500);
    const session = await env.sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 100, currency: 'VES' } });
    await env.sandbox.request('POST', `/v1/sessions/${session.body.reference}/expire`, { key: keys.secretTest });
    await env.sandbox.background.drain();
    expect(receivedAt('/flaky')).toHaveLength(1);

    for (const [index, delay] of RETRY_DELAYS_SECONDS.entries()) {
      env.sandbox.advance(delay - 1);
      await env.sandbox.background.drain();
      expect(receivedAt('/flaky')).toHaveLength(index + 1);
      env.sandbox.advance(1);
      await env.sandbox.background.drain();
      expect(receivedAt('/flaky')).toHaveLength(index + 2);
    }
    const list = await env.sandbox.request('GET', `/v1/webhooks/deliveries?endpointId=${endpoint.id}`, { key: keys.secretTest });
    const [delivery] = list.body.data;
    expect(delivery).toMatchObject({ state: 'failed', attemptCount: 6, lastStatusCode: 500, nextRetryAt: null });
    expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(env.sandbox.background.queues.webhookDeliveries.deadLetters.map((m) => JSON.parse(m.body).deliveryId)).toContain(delivery.id);

    const retried = await env.sandbox.request('POST', `/v1/webhooks/deliveries/${delivery.id}/retry`, { key: keys.secretTest });
    expect(retried.status).toBe(202);
    await env.sandbox.background.drain();
    expect(receivedAt('/flaky')).toHaveLength(7);
    const after = await env.sandbox.request('GET', `/v1/webhooks/deliveries/${delivery.id}`, { key: keys.secretTest });
    expect(after.body).toMatchObject({ state: 'succeeded', attemptCount: 7, lastStatusCode: 200 });
    expect(after.body.attempts.at(-1)).toMatchObject({ attempt: 7, manual: true, statusCode: 200 });
  });
  async function expireNewSession(key: string): Promise<string> {
    const session = await env.sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 100, currency: 'VES' } });
    await env.sandbox.request('POST', `/v1/sessions/${session.body.reference}/expire`, { key });
    await env.sandbox.background.drain();
    return session.body.reference as string;
  }

  it('sends the header of each authType beside the signature, with a rotated credential taking effect', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ authType: 'none' }, 'authorization', ''],
      [{ authType: 'bearer', authToken: 'tok-123' }, 'authorization', 'Bearer tok-123'],
      [{ authType: 'basic', authUsername: 'ana', authPassword: 'p:ss' }, 'authorization', `Basic ${Buffer.from('ana:p:ss').toString('base64')}`],
      [{ authType: 'api_key', authToken: 'key-9', authHeaderName: 'X-Merchant-Key' }, 'x-merchant-key', 'key-9'],
    ];
    for (const [auth, header, expected] of cases) {
      const path = `/auth-${auth.authType}`;
      const { keys, endpoint } = await merchantWithEndpoint(auth, path);
      await expireNewSession(keys.secretTest);
      const [request] = receivedAt(path);
      expect({ path, header: request?.headers[header] ?? '' }).toEqual({ path, header: expected });
      expect(verified(request!, endpoint.secret).valid).toBe(true);
      if (auth.authType === 'bearer') {
        await env.sandbox.request('PATCH', `/v1/webhooks/endpoints/${endpoint.id}`, { key: keys.secretTest, body: { authToken: 'tok-456' } });
        await expireNewSession(keys.secretTest);
        expect(receivedAt(path).at(-1)?.headers.authorization).toBe('Bearer tok-456');
      }
    }
  });

  it('oauth2: fetches a client_credentials token, caches it, and fetches a new one once after a 401', async () => {
    const tokenRequests: ReceivedRequest[] = [];
    let issued = 0;
    const tokenServer = await startReceiver((request) => {
      tokenRequests.push(request);
      issued += 1;
      return { status: 200, body: JSON.stringify({ access_token: `access-${issued}`, token_type: 'Bearer', expires_in: 3600 }) };
    });
    let rejectNext = false;
    const protectedReceiver = await startReceiver((request) => {
      if (rejectNext && request.headers.authorization === 'Bearer access-1') return { status: 401 };
      return undefined;
    });
    try {
      const { keys } = await env.sandbox.newMerchant();
      const created = await env.sandbox.request('POST', '/v1/webhooks/endpoints', {
        key: keys.secretTest,
        body: { url: `${protectedReceiver.url}/oauth`, authType: 'oauth2', oauthTokenUrl: `${tokenServer.url}/token`, oauthClientId: 'client-1', oauthClientSecret: 'shh', oauthScope: 'webhooks' },
      });
      expect(created.body).toMatchObject({ authType: 'oauth2', oauthClientId: 'client-1', oauthScope: 'webhooks', hasOAuthClientSecret: true });
      expect(created.text).not.toContain('shh');

      await expireNewSession(keys.secretTest);
      await expireNewSession(keys.secretTest);
      expect(protectedReceiver.received.map((r) => r.headers.authorization)).toEqual(['Bearer access-1', 'Bearer access-1']);
      expect(tokenRequests).toHaveLength(1);
      expect(tokenRequests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('client-1:shh').toString('base64')}`);
      expect(new URLSearchParams(tokenRequests[0]!.rawBody).get('grant_type')).toBe('client_credentials');
      expect(new URLSearchParams(tokenRequests[0]!.rawBody).get('scope')).toBe('webhooks');

      rejectNext = true;
      await expireNewSession(keys.secretTest);
      expect(protectedReceiver.received.slice(2).map((r) => [r.headers.authorization, r.rawBody === protectedReceiver.received[3]?.rawBody])).toEqual([
        ['Bearer access-1', true],
        ['Bearer access-2', true],
      ]);
      expect(tokenRequests).toHaveLength(2);
    } finally {
      await tokenServer.close();
      await protectedReceiver.close();
    }
  });

  it('a disabled endpoint gets nothing, an unsubscribed one neither, but POST .../test reaches it signed', async () => {
    const { keys, endpoint } = await merchantWithEndpoint({}, '/disabled');
    await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/only-charges`, enabledEvents: ['charge.approved'] } });
    await env.sandbox.request('PATCH', `/v1/webhooks/endpoints/${endpoint.id}`, { key: keys.secretTest, body: { status: 'disabled' } });
    await expireNewSession(keys.secretTest);
    expect(receivedAt('/disabled')).toHaveLength(0);
    expect(receivedAt('/only-charges')).toHaveLength(0);
    const none = await env.sandbox.request('GET', '/v1/webhooks/deliveries', { key: keys.secretTest });
    expect(none.body).toEqual({ data: [], hasMore: false, nextCursor: null });

    const test = await env.sandbox.request('POST', `/v1/webhooks/endpoints/${endpoint.id}/test`, { key: keys.secretTest });
    expect(test.status).toBe(202);
    expect(test.body).toEqual({ deliveryId: expect.stringMatching(/^wd_/), eventId: expect.stringMatching(/^evt_/) });
    await env.sandbox.background.drain();
    const [request, ...more] = receivedAt('/disabled');
    expect(more).toHaveLength(0);
    expect(verified(request!, endpoint.secret).valid).toBe(true);
    expect(JSON.parse(request!.rawBody)).toMatchObject({ id: test.body.eventId, type: 'webhook.test', env: 'test', data: { endpointId: endpoint.id } });
    const delivery = await env.sandbox.request('GET', `/v1/webhooks/deliveries/${test.body.deliveryId}`, { key: keys.secretTest });
    expect(delivery.body).toMatchObject({ state: 'succeeded', eventId: test.body.eventId, endpointId: endpoint.id, eventType: 'webhook.test', attemptCount: 1 });
    expect(delivery.body.attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, manual: false, nextRetryAt: null, durationMs: expect.any(Number), responseExcerpt: expect.stringContaining('received') });
  });

  it('lists deliveries newest first with filters and cursor pages', async () => {
    const { keys, endpoint } = await merchantWithEndpoint({}, '/list-a');
    const second = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/list-b` } });
    env.receiver.failNext(503);
    await expireNewSession(keys.secretTest);
    env.sandbox.advance(1);
    await expireNewSession(keys.secretTest);
    const all = await env.sandbox.request('GET', '/v1/webhooks/deliveries', { key: keys.secretTest });
    expect(all.body.data).toHaveLength(4);
    expect(all.body.data[0].createdAt >= all.body.data[3].createdAt).toBe(true);

    const forA = await env.sandbox.request('GET', `/v1/webhooks/deliveries?endpointId=${endpoint.id}`, { key: keys.secretTest });
    expect(forA.body.data.map((d: { endpointId: string }) => d.endpointId)).toEqual([endpoint.id, endpoint.id]);
    const retrying = await env.sandbox.request('GET', '/v1/webhooks/deliveries?state=retrying', { key: keys.secretTest });
    expect(retrying.body.data).toHaveLength(1);
    expect(retrying.body.data[0]).toMatchObject({ lastStatusCode: 503, nextRetryAt: expect.any(String) });
    const byEvent = await env.sandbox.request('GET', `/v1/webhooks/deliveries?eventId=${retrying.body.data[0].eventId}`, { key: keys.secretTest });
    expect(byEvent.body.data.map((d: { endpointId: string }) => d.endpointId).sort()).toEqual([endpoint.id, second.body.id].sort());

    const page1 = await env.sandbox.request('GET', '/v1/webhooks/deliveries?limit=3', { key: keys.secretTest });
    expect(page1.body).toMatchObject({ hasMore: true, nextCursor: page1.body.data[2].id });
    const page2 = await env.sandbox.request('GET', `/v1/webhooks/deliveries?limit=3&startingAfter=${page1.body.nextCursor}`, { key: keys.secretTest });
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect([...page1.body.data, ...page2.body.data].map((d: { id: string }) => d.id)).toEqual(all.body.data.map((d: { id: string }) => d.id));
    expect((await env.sandbox.request('GET', '/v1/webhooks/deliveries?state=lost', { key: keys.secretTest })).status).toBe(400);
  });
  it('a stream record seen twice makes one delivery and one POST (derived delivery id, conditional write)', async () => {
    const { merchant, keys } = await merchantWithEndpoint({}, '/replayed');
    await expireNewSession(keys.secretTest);
    const [stored] = await env.sandbox.deps.outbox.listForMerchant(merchant.id, 'test');
    const image = marshall({ pk: `EVENT#${stored!.envelope.id}`, sk: 'EVENT', type: 'event', merchantId: merchant.id, envelope: stored!.envelope });
    const replay: DynamoDBStreamEvent = {
      Records: [{ eventName: 'INSERT', dynamodb: { Keys: { pk: image.pk as never, sk: image.sk as never }, NewImage: image as never, SequenceNumber: '1' } }],
    };
    const dispatch = buildDispatcher(env.sandbox.deps);
    expect(await dispatch(replay)).toEqual({ batchItemFailures: [] });
    expect(await dispatch(replay)).toEqual({ batchItemFailures: [] });
    await env.sandbox.background.drain();
    expect(receivedAt('/replayed')).toHaveLength(1);
    const deliveries = await env.sandbox.request('GET', `/v1/webhooks/deliveries?eventId=${stored!.envelope.id}`, { key: keys.secretTest });
    expect(deliveries.body.data).toHaveLength(1);
  });
});
