/**
 * Event envelopes of the spec, built as plain data. They are written to the outbox in the same DynamoDB
 * transaction as the state change they announce; delivery reads them from there.
 */
import { prefixedId } from '../ids.ts';
import { metadataOf, type Metadata } from './metadata.ts';
import type { ClosedReason, Mode } from './session-state.ts';

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

export interface EventEnvelope<D = Record<string, unknown>> {
  id: string;
  type: EventType;
  createdAt: string;
  /** "test" or "live": the mode of the key behind the change. */
  env: Mode;
  data: D;
}

export function buildEvent<D extends Record<string, unknown>>(type: EventType, mode: Mode, createdAt: string, data: D): EventEnvelope<D> {
  return { id: prefixedId('evt'), type, createdAt, env: mode, data };
}

export interface SessionExpiredData extends Record<string, unknown> {
  sessionReference: string;
  reason: ClosedReason;
  failureCount: number;
  maxFailures: number | null;
  metadata: Metadata;
}

export const sessionExpiredEvent = (
  session: { reference: string; mode: Mode; failureCount: number; maxFailures: number | null; metadata?: Metadata },
  reason: ClosedReason,
  createdAt: string,
): EventEnvelope<SessionExpiredData> =>
  buildEvent('session.expired', session.mode, createdAt, {
    sessionReference: session.reference,
    reason,
    failureCount: session.failureCount,
    maxFailures: session.maxFailures,
    metadata: metadataOf(session),
  });
