import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifyWebhookSignature } from '../../shared/webhooks/signature.ts';

describe('webhook signature', () => {
  const secret = 'whsec_test123';
  const body = '{"id":"evt_1","type":"webhook.test"}';
  const t = 1_767_225_600;
  const now = t * 1000;

  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> as the spec defines it', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signatureHeader(secret, body, t)).toBe(`t=${t},v1=${expected}`);
  });

  it('verifies a genuine signature, on a string or a Buffer body', () => {
    const header = signatureHeader(secret, body, t);
    expect(verifyWebhookSignature({ header, rawBody: body, secret, now })).toEqual({ valid: true, timestamp: t });
    expect(verifyWebhookSignature({ header, rawBody: Buffer.from(body), secret, now: now + 299_000 })).toEqual({ valid: true, timestamp: t });
  });

  it('rejects a changed body, another secret, a stale or future t, and malformed headers', () => {
    const header = signatureHeader(secret, body, t);
    expect(verifyWebhookSignature({ header, rawBody: body.replace('1', '2'), secret, now })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyWebhookSignature({ header, rawBody: body, secret: 'whsec_other', now })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyWebhookSignature({ header, rawBody: body, secret, now: now + 301_000 })).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
    expect(verifyWebhookSignature({ header, rawBody: body, secret, now: now - 301_000 })).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
    expect(verifyWebhookSignature({ header: undefined, rawBody: body, secret, now })).toEqual({ valid: false, reason: 'missing_header' });
    expect(verifyWebhookSignature({ header: 'v1=abc', rawBody: body, secret, now })).toEqual({ valid: false, reason: 'malformed_header' });
    expect(verifyWebhookSignature({ header: `t=${t},v1=zz`, rawBody: body, secret, now })).toEqual({ valid: false, reason: 'signature_mismatch' });
  });

  it('accepts any of several v1 values (secret rotation)', () => {
    const genuine = signatureHeader(secret, body, t).split(',')[1];
    expect(verifyWebhookSignature({ header: `t=${t},v1=${'0'.repeat(64)},${genuine}`, rawBody: body, secret, now }).valid).toBe(true);
  });
});
