/**
 * The webhook events' payloads, as zod schemas: the OpenAPI document's `webhooks` section is built from them
 * (shared/openapi/webhooks-section.ts), and test/openapi checks every sample event and every event a real flow
 * delivers against them, so the documented shape cannot drift from what shared/domain builds.
 */
import * as z from 'zod';
import { CURRENCIES, GATEWAY_IDS } from '../domain/merchant.ts';
import { EVENT_TYPES, type EventType } from '../domain/events.ts';
import { REFUND_REASONS } from '../domain/refund.ts';
import { EXTERNAL_REFUND_CHANNELS } from '../domain/refund-channels.ts';
import { CLOSED_REASONS } from '../domain/session-state.ts';
import { PaymentMethodDetailsSchema } from './transaction-responses.ts';

const timestamp = z.string().meta({ description: 'ISO 8601, UTC.', example: '2026-01-15T10:00:00.000Z' });
const metadata = z.record(z.string(), z.string()).meta({ description: "The merchant's metadata of the session or server-to-server charge; {} when none.", example: { orderId: 'order_42' } });
/** Present only on sample events (POST /v1/webhooks/endpoints/{id}/test): never fulfil an order on one. */
const sample = z.literal(true).optional().meta({ description: 'true on sample events sent by the endpoint tester; absent on real events.' });
const origin = {
  sessionReference: z.string().optional().meta({ description: 'Checkout charges: the session paid.', example: 'cs_4kT9mQ2xW7bN1pL8vR3yZ6cJ' }),
  svcToken: z.string().optional().meta({ description: 'Server-to-server charges: the stored card charged.', example: 'tok_svc_7Hq2LmZ8rT1vB6nW3kY5aQeX' }),
};

const charge = (status: 'approved' | 'declined' | 'failed') =>
  z.strictObject({
    transactionReference: z.string().meta({ example: 'txn_8ZpQ3nV6kW1xR4tY7mB2cL9d' }),
    amountMinor: z.int().min(1).meta({ example: 1050 }),
    currency: z.enum(CURRENCIES),
    status: z.literal(status),
    declineReason: status === 'approved' ? z.null() : z.string().meta({ description: 'Spanish, for the buyer; may change: branch on errorCode.' }),
    errorCode: status === 'approved' ? z.null() : z.string().meta({ description: 'Processor code: the one to branch on.', example: '0051' }),
    processorReference: status === 'approved' ? z.string().meta({ description: "The bank's reference, for reconciliation." }) : z.null(),
    paymentMethod: PaymentMethodDetailsSchema.meta({ description: 'How the buyer paid; a pago móvil phone masked to its last four digits.' }),
    metadata,
    ...origin,
    sample,
  });

const refund = (status: 'succeeded' | 'failed') =>
  z.strictObject({
    transactionReference: z.string(),
    refundReference: z.string().meta({ example: 'ref_3f1c9a0d2b7e4c58a6d1f0e9' }),
    amountMinor: z.int().min(1).meta({ description: 'This refund.', example: 500 }),
    currency: z.enum(CURRENCIES),
    status: z.literal(status),
    reason: z.enum(REFUND_REASONS).nullable(),
    method: z.enum(['refund', 'void', 'external']).meta({ description: 'external: a refund the merchant made another way and recorded; no money moved here.' }),
    external: z
      .strictObject({ channel: z.enum(EXTERNAL_REFUND_CHANNELS), reference: z.string().nullable() })
      .optional()
      .meta({ description: 'Only on an external refund: how the money went back.' }),
    processorReference: z.string().nullable(),
    errorCode: status === 'succeeded' ? z.null() : z.string(),
    declineReason: status === 'succeeded' ? z.null() : z.string(),
    transactionAmountMinor: z.int().meta({ description: 'The approved amount of the charge.' }),
    amountRefundedMinor: z.int().meta({ description: 'Refunded so far, this refund included when it succeeded.' }),
    transactionStatus: z.enum(['approved', 'refunded']),
    metadata,
    ...origin,
    sample,
  });

const card = {
  svcToken: z.string(),
  brand: z.string().meta({ example: 'visa' }),
  lastFour: z.string().meta({ example: '1111' }),
  customerRef: z.string().meta({ example: 'cus_42' }),
};
const verification = {
  ...card,
  gateway: z.enum(GATEWAY_IDS),
  authenticationStatus: z.enum(['active', 'requires_authentication']),
  authenticatedAt: timestamp.nullable(),
  estimatedExpiresAt: timestamp.nullable().meta({ description: "Three months after the last verification: the service's estimate; the gateway decides." }),
};
const otpStep = z.strictObject({ sessionReference: z.string(), transactionReference: z.string(), sample });

const EVENT_DATA = {
  'charge.approved': charge('approved'),
  'charge.declined': charge('declined'),
  'charge.failed': charge('failed'),
  'charge.refunded': refund('succeeded'),
  'charge.refund_failed': refund('failed'),
  'card.stored': z.strictObject({ ...card, sample }),
  'card.deleted': z.strictObject({ ...card, sample }),
  'session.otp_requested': otpStep,
  'session.otp_confirmed': otpStep,
  'session.expired': z.strictObject({
    sessionReference: z.string(),
    reason: z.enum(CLOSED_REASONS),
    failureCount: z.int().min(0),
    maxFailures: z.int().nullable().meta({ description: 'null when the session had no limit.' }),
    metadata,
    sample,
  }),
  'webhook.test': z.strictObject({ endpointId: z.string(), message: z.string(), sample }),
  'card.authentication_expiring': z.strictObject({ ...verification, daysLeft: z.int().min(1).meta({ example: 7 }), sample }),
  'card.authentication_expired': z.strictObject({ ...verification, transactionReference: z.string().nullable(), sample }),
} as const satisfies Record<EventType, z.ZodType>;

const schemaName = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Event`;

/** The envelope every delivery's body has, with `data` of that event type. */
export const eventSchema = (type: EventType) =>
  z
    .strictObject({
      id: z.string().meta({ description: 'evt_...: deduplicate deliveries on it (delivery is at least once).', example: 'evt_2mN8qR5tV1xK7wB3yL6pC9dZ' }),
      type: z.literal(type),
      createdAt: timestamp,
      env: z.enum(['test', 'live']).meta({ description: 'The mode of the key behind the change.' }),
      data: EVENT_DATA[type],
    })
    .meta({ id: schemaName(type) });

export const EVENT_SCHEMAS = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventSchema(type)])) as Record<EventType, ReturnType<typeof eventSchema>>;
