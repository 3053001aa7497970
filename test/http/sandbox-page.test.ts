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

  it('lists the API requests with their ids and error codes, each delivery with its endpoint URL, and resends one with a form POST', async () => {
    const { merchant, keys } = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/resend` } });
    const refused = await env.sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: -1, currency: 'VES' } });
    const session = await openSession(env.sandbox, keys.secretTest);
    await env.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest });
    await env.sandbox.background.drain();
    const [delivery] = (await env.sandbox.request('GET', '/v1/webhooks/deliveries', { key: keys.secretTest })).body.data;

    const page = `${env.sandbox.url}/__sandbox/?merchant=${merchant.id}`;
    const html = await (await fetch(page)).text();
    expect(html).toContain(refused.headers.get('request-id'));
    expect(html).toContain('parameter_invalid');
    expect(html).toContain(`${env.receiver.url}/resend`);
    expect(html).toContain(`action="/__sandbox/deliveries/${delivery.id}/retry"`);
    expect(html).not.toMatch(/<script/i);

    const before = env.receiver.received.filter((r) => r.path === '/resend').length;
    const form = new URLSearchParams({ merchant: merchant.id, mode: 'test' });
    const crossSite = await fetch(`${env.sandbox.url}/__sandbox/deliveries/${delivery.id}/retry`, { method: 'POST', body: form, headers: { 'sec-fetch-site': 'cross-site' }, redirect: 'manual' });
    expect(crossSite.status).toBe(403);
    const resent = await fetch(`${env.sandbox.url}/__sandbox/deliveries/${delivery.id}/retry`, { method: 'POST', body: form, headers: { 'sec-fetch-site': 'same-origin' }, redirect: 'manual' });
    expect(resent.status).toBe(303);
    expect(resent.headers.get('location')).toBe(`/__sandbox/?merchant=${merchant.id}&mode=test&notice=resent`);
    await env.sandbox.background.drain();
    expect(env.receiver.received.filter((r) => r.path === '/resend')).toHaveLength(before + 1);
    const after = await env.sandbox.request('GET', `/v1/webhooks/deliveries/${delivery.id}`, { key: keys.secretTest });
    expect(after.body.attempts.at(-1)).toMatchObject({ manual: true, statusCode: 200 });
    expect(await (await fetch(`${env.sandbox.url}${resent.headers.get('location')}`)).text()).toContain('Resend queued');

    // The same refusals as the API's retry: a deleted endpoint cannot be sent to again.
    await env.sandbox.request('DELETE', `/v1/webhooks/endpoints/${endpoint.body.id}`, { key: keys.secretTest });
    const gone = await fetch(`${env.sandbox.url}/__sandbox/deliveries/${delivery.id}/retry`, { method: 'POST', body: form, redirect: 'manual' });
    expect(gone.headers.get('location')).toContain('notice=endpoint_deleted');
    expect(await (await fetch(`${env.sandbox.url}${gone.headers.get('location')}`)).text()).toContain('Resend refused: endpoint_deleted.');
  });
});
