import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_TOLERANCE_SECONDS, verifyWebhookSignature } from '../../shared/webhooks/signature.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';

/**
 * A receiver checks `t` against its own (real) clock, so every delivery is signed with the time of sending, whatever
 * the sandbox clock says. The event itself (createdAt) keeps the service's time.
 */
describe('webhook signatures use real time', () => {
  const env = sandboxWithReceiver();

  it('verifies with real-time verifiers (ours and Stripe’s, the same t=,v1= scheme) after the sandbox clock moved an hour', async () => {
    const { keys } = await env.sandbox.newMerchant();
    const endpoint = await env.sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `${env.receiver.url}/real-time` } });
    env.sandbox.advance(3600);
    const session = (await env.sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 700, currency: 'VES' } })).body;
    expect((await env.sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.secretTest })).status).toBe(200);
    await env.sandbox.background.drain();

    const [request, ...more] = env.receiver.received.filter((r) => r.path === '/real-time');
    expect(more).toHaveLength(0);
    const header = request!.headers['svc-signature'] as string;
    const event = JSON.parse(request!.rawBody) as { type: string; createdAt: string };
    expect(event.type).toBe('session.expired');
    // The event's time follows the sandbox clock, an hour ahead; the signature's does not.
    expect(Date.parse(event.createdAt) - Date.now()).toBeGreaterThan(3500_000);
    const t = Number(/t=(\d+)/.exec(header)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);

    expect(verifyWebhookSignature({ header, rawBody: request!.rawBody, secret: endpoint.body.secret })).toEqual({ valid: true, timestamp: t });
    expect(Stripe.webhooks.signature!.verifyHeader(request!.rawBody, header, endpoint.body.secret, SIGNATURE_TOLERANCE_SECONDS)).toBe(true);
    // The cross-check can fail: a changed body or another secret is refused by Stripe's verifier too.
    expect(() => Stripe.webhooks.signature!.verifyHeader(`${request!.rawBody} `, header, endpoint.body.secret, SIGNATURE_TOLERANCE_SECONDS)).toThrow();
    expect(() => Stripe.webhooks.signature!.verifyHeader(request!.rawBody, header, 'whsec_other', SIGNATURE_TOLERANCE_SECONDS)).toThrow();
  });
});
