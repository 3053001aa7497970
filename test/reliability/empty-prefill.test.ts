/**
 * Issue 17 finding 5: `"prefill": {}` was accepted and stored as an empty map, which the expiry planner could not
 * read from the stream, so the session's session.expired never arrived. An empty prefill is no prefill: null.
 */
import { describe, expect, it } from 'vitest';
import { itemsOfMerchant } from '../support/dynamo.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

describe('a session created with an empty prefill', { timeout: 120_000 }, () => {
  const env = sandboxWithReceiver();

  it('is answered and stored with prefill null, and its session.expired webhook arrives', async () => {
    const { merchant, keys } = await env.sandbox.newMerchant();
    await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/empty-prefill` } });

    const created = await env.sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 500, currency: 'VES', expiresInMinutes: 2, prefill: {} } });
    expect(created.status).toBe(201);
    expect(created.body.prefill).toBeNull();
    const stored = (await itemsOfMerchant(merchant.id)).find((i) => i.type === 'session' && i.reference === created.body.reference);
    expect(stored?.prefill).toBeNull();

    await env.sandbox.background.drain();
    env.sandbox.advance(120);
    await env.sandbox.background.drain();
    const expired = env.receiver.received.filter((r) => r.path === '/empty-prefill').map((r) => JSON.parse(r.rawBody));
    expect(expired).toMatchObject([{ type: 'session.expired', data: { sessionReference: created.body.reference, reason: 'expired' } }]);
  });
});
