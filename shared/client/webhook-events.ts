import type { EventEnvelope } from '../domain/events.ts';
import { SIGNATURE_HEADER, verifyWebhookSignature, type VerificationFailure } from '../webhooks/signature.ts';

export { SIGNATURE_HEADER, verifyWebhookSignature };
export type { EventEnvelope as WebhookEvent, EventType } from '../domain/events.ts';

export class WebhookSignatureError extends Error {
  constructor(readonly reason: VerificationFailure) {
    super(`Webhook signature rejected: ${reason}`);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * The event of a webhook POST, after checking its Svc-Signature on the raw body (never on re-serialised JSON).
 * Throws WebhookSignatureError; answer 400 then. Sample events (the endpoint test) carry data.sample true.
 *
 * @example
 * const event = parseWebhookEvent({ rawBody, header: req.headers['svc-signature'], secret: process.env.WHSEC! });
 * if (event.type === 'charge.approved' && event.data.sample !== true) await fulfil(event.data.sessionReference);
 */
export function parseWebhookEvent(options: {
  rawBody: string | Buffer;
  header: string | string[] | null | undefined;
  secret: string;
  now?: number;
  /** Largest accepted gap between the signature's t and now; default 300 (5 minutes). */
  toleranceSeconds?: number;
}): EventEnvelope {
  const header = Array.isArray(options.header) ? options.header[0] : options.header;
  const result = verifyWebhookSignature({ header, rawBody: options.rawBody, secret: options.secret, now: options.now, toleranceSeconds: options.toleranceSeconds });
  if (!result.valid) throw new WebhookSignatureError(result.reason);
  return JSON.parse(options.rawBody.toString()) as EventEnvelope;
}
