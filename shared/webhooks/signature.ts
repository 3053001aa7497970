/**
 * The webhook signature of the spec: header `Svc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
 * keyed with the endpoint's secret (whsec_...). Pure: node:crypto only, so merchants can copy this file as it is.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Svc-Signature';
/** The reference verifier rejects signatures older (or newer) than this. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const hmacHex = (secret: string, timestamp: number, rawBody: string | Buffer): string =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');

/**
 * The Svc-Signature header value for a body sent at `unixSeconds`.
 *
 * @example
 * signatureHeader('whsec_abc', '{"id":"evt_1"}', 1767225600) // 't=1767225600,v1=5d1c...'
 */
export function signatureHeader(secret: string, rawBody: string | Buffer, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, unixSeconds, rawBody)}`;
}

export type VerificationFailure = 'missing_header' | 'malformed_header' | 'timestamp_outside_tolerance' | 'signature_mismatch';
export type VerificationResult = { valid: true; timestamp: number } | { valid: false; reason: VerificationFailure };

export interface VerifyOptions {
  /** The Svc-Signature header as received. */
  header: string | null | undefined;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Buffer;
  /** The endpoint's whsec_... secret. */
  secret: string;
  /** Milliseconds since the epoch; defaults to the real time. */
  now?: number;
  toleranceSeconds?: number;
}

/**
 * The merchant-side check: the v1 HMAC over the raw body, compared in constant time, and a timestamp no further
 * than five minutes from now (a replayed old request fails). Deduplicate accepted events by their id: delivery is
 * at least once.
 *
 * @example
 * const result = verifyWebhookSignature({ header: req.headers['svc-signature'], rawBody, secret: process.env.WHSEC! });
 * if (!result.valid) return res.writeHead(400).end(result.reason);
 */
export function verifyWebhookSignature({ header, rawBody, secret, now = Date.now(), toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS }: VerifyOptions): VerificationResult {
  if (!header) return { valid: false, reason: 'missing_header' };
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value) candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) return { valid: false, reason: 'malformed_header' };
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return { valid: false, reason: 'timestamp_outside_tolerance' };
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  // Several v1 values may be present while a secret is being rotated; any match is enough.
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'signature_mismatch' };
}
