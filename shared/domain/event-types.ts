/**
 * The webhook event types, with no imports: the API (shared/domain/events.ts), the OpenAPI document and the
 * dashboard's browser bundle, which cannot take events.ts's node:crypto, all read this one list.
 *
 * @example
 * const optional = OPTIONAL_EVENT_TYPES.includes('card.authentication_expired'); // true
 */
export const EVENT_TYPES = [
  'charge.approved',
  'charge.declined',
  'charge.failed',
  'charge.refunded',
  'charge.refund_failed',
  'card.stored',
  'card.deleted',
  'session.otp_requested',
  'session.otp_confirmed',
  'session.expired',
  'webhook.test',
  'card.authentication_expiring',
  'card.authentication_expired',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Gateway-specific events reach only endpoints that name them. */
export const OPTIONAL_EVENT_TYPES: readonly EventType[] = ['card.authentication_expiring', 'card.authentication_expired'];
