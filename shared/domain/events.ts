/**
 * Event envelopes of the spec, built as plain data. They are written to the outbox in the same DynamoDB
 * transaction as the state change they announce; delivery reads them from there.
 */
import { prefixedId } from '../ids.ts';
import type { EventType } from './event-types.ts';
import { metadataOf, type Metadata } from './metadata.ts';
import type { ClosedReason, Mode } from './session-state.ts';

export { EVENT_TYPES, OPTIONAL_EVENT_TYPES, type EventType } from './event-types.ts';

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
