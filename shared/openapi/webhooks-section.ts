import * as z from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EVENT_TYPES, OPTIONAL_EVENT_TYPES, type EventType } from '../domain/events.ts';
import { sampleEvent } from '../domain/sample-events.ts';
import { EVENT_SCHEMAS } from '../schemas/event-schemas.ts';

/** When each event is sent (the spec's table, with this implementation's additions). */
const EMITTED_WHEN: Record<EventType, string> = {
  'charge.approved': 'A charge was approved. Ship on this event (after checking `data.sample` is absent), not on the buyer reaching returnUrl.',
  'charge.declined': 'A charge was rejected by the bank or the card. Branch on `errorCode`; show `declineReason` (Spanish) to the buyer.',
  'charge.failed': 'A charge could not be processed (configuration, network or processor failure).',
  'charge.refunded': 'A refund succeeded, full or partial; `amountRefundedMinor` is the running total.',
  'charge.refund_failed': 'A refund failed at the bank; the amount is refundable again.',
  'card.stored': 'A card was stored after an approved charge on a session with a customerRef.',
  'card.deleted': 'A stored card was deleted (DELETE /v1/cards/{svcToken}); sent once.',
  'session.otp_requested': 'The bank asked the buyer for an OTP.',
  'session.otp_confirmed': 'The buyer confirmed the OTP; the charge goes on.',
  'session.expired': 'The session closed unpaid: by time, by exhausted attempts or by the merchant. One event, one format for all three (`reason`).',
  'webhook.test': 'Sent by POST /v1/webhooks/endpoints/{id}/test, even to a disabled or unsubscribed endpoint.',
  'card.authentication_expiring': "Optional, bank_otp only: a stored card's verification ends soon (notices 15, 7 and 1 day before the estimate).",
  'card.authentication_expired': 'Optional, bank_otp only: the gateway asked for verification again; the customer must pay once with the card in the checkout.',
};

const SIGNATURE = z.object({
  'Svc-Signature': z.string().meta({
    description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret whsec_...>. Verify it on the raw body, in constant time, and reject a t more than 5 minutes from your clock.',
    example: 't=1768471200,v1=5f8a3c...e19b',
  }),
});

/** The examples' fixed moment, so the document is the same at every build. */
const EXAMPLE_NOW = Date.parse('2026-01-15T10:00:00.000Z');

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, with its payload schema (shared/schemas/event-schemas.ts)
 * and an example made by the same builder as the real event (shared/domain/sample-events.ts).
 */
export function webhooksSection(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const optional = OPTIONAL_EVENT_TYPES.includes(type);
      // A fixed id too (a sample's is random, as a real event's): the document is the same at every build.
      const example = { ...sampleEvent(type, { mode: 'test', now: EXAMPLE_NOW, endpointId: 'we_5rT8wQ1zX4cV7bN2mK6jH3gF' }), id: 'evt_2mN8qR5tV1xK7wB3yL6pC9dZ' };
      return [
        type,
        {
          post: {
            operationId: `event.${type}`,
            summary: type,
            description: `${EMITTED_WHEN[type]}${optional ? ' Reaches only endpoints that name it in enabledEvents.' : ''} The example is a sample event (data.sample true); real events have no sample field. Answer 2xx within 5 seconds; anything else is retried up to 5 times. Ignore event types you do not know: new ones may be added.`,
            tags: ['Events'],
            security: [{ webhookSignature: [] }],
            requestParams: { header: SIGNATURE },
            requestBody: { required: true, content: { 'application/json': { schema: EVENT_SCHEMAS[type], example } } },
            responses: { '200': { description: 'Any 2xx acknowledges the event.' } },
          },
        },
      ];
    }),
  );
}
