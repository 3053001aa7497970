import { describe, expect, it } from 'vitest';
import { checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

describe('the sandbox activity page', () => {
  const env = sandboxWithReceiver();

  it('lists the merchant\'s sessions, transactions and deliveries with their payloads, escaped and without card data', async () => {
    const { merchant, keys } = await env.sandbox.newMerchant();
    const other = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/page` } });
    const session = await openSession(env.sandbox, keys.secretTest, { description: '<script>alert("x")</script>' });
    const paid = await checkoutCharge(env.sandbox, session.reference);
    await env.sandbox.background.drain();
    const otherSession = await openSession(env.sandbox, other.keys.secretTest);

    const res = await fetch(`${env.sandbox.url}/__sandbox/?merchant=${merchant.id}`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain(session.reference);
    expect(html).toContain(paid.body.transaction.reference);
    const deliveries = await env.sandbox.request('GET', `/v1/webhooks/deliveries?endpointId=${endpoint.body.id}`, { key: keys.secretTest });
    expect(deliveries.body.data.length).toBeGreaterThan(0);
    for (const delivery of deliveries.body.data) expect(html).toContain(delivery.id);
    expect(html).toContain('charge.approved');
    expect(html).toContain('&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;'); // JSON-escaped, then HTML-escaped
    expect(html).not.toContain('<script>');
    expect(html).not.toContain(TEST_CARDS.visa);
    expect(html).not.toContain(otherSession.reference);
  });

  it('asks for a merchant when none is named, and shows live data only when asked', async () => {
    const { merchant, keys } = await env.sandbox.newMerchant();
    const session = await openSession(env.sandbox, keys.secretTest);
    expect(await (await fetch(`${env.sandbox.url}/__sandbox/`)).text()).toContain('/__sandbox/?merchant=mer_...');
    const live = await (await fetch(`${env.sandbox.url}/__sandbox/?merchant=${merchant.id}&mode=live`)).text();
    expect(live).not.toContain(session.reference);
    expect(live).toContain('None yet.');
  });
});
