/**
 * Webhook deliveries: one per event and endpoint, with every attempt logged. The rules of what an attempt's
 * outcome means for the delivery live here. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import type { EventType } from '../domain/events.ts';
import type { Mode } from '../domain/session-state.ts';
import { retryDelaySeconds } from './retry-schedule.ts';

export const DELIVERY_STATES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** A delivery keeps its last attempts; older ones are dropped so the record stays far below DynamoDB's item limit. */
export const MAX_LOGGED_ATTEMPTS = 50;

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  manual: boolean;
  /** null when no HTTP answer came (timeout, refused address, network error). */
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  /** When the automatic retry after this attempt is due; null when none follows. */
  nextRetryAt: string | null;
}

export interface WebhookDelivery {
  id: string;
  merchantId: string;
  mode: Mode;
  endpointId: string;
  eventId: string;
  eventType: EventType;
  state: DeliveryState;
  attemptCount: number;
  /** Automatic attempts only: they decide the backoff; a manual retry does not use up the schedule. */
  automaticAttemptCount: number;
  lastStatusCode: number | null;
  nextRetryAt: string | null;
  /** Why the delivery stopped without a final attempt (endpoint_deleted, endpoint_disabled, event_expired); else null. */
  failureReason: string | null;
  attempts: DeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export type WebhookDeliveryResource = Omit<WebhookDelivery, 'merchantId' | 'automaticAttemptCount' | 'version'>;

/**
 * Derived from the event and the endpoint, so a stream record processed twice (at-least-once) or by two
 * dispatchers creates the same delivery, and the conditional write lets only one of them send it.
 */
export function deliveryIdFor(eventId: string, endpointId: string): string {
  const digest = createHash('sha256').update(`${eventId}\n${endpointId}`).digest();
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let token = '';
  for (const byte of digest.subarray(0, 24)) token += alphabet[byte % 62];
  return `wd_${token}`;
}

export function newDelivery(
  ids: { merchantId: string; mode: Mode; endpointId: string; eventId: string; eventType: EventType },
  now: number,
): WebhookDelivery {
  const at = new Date(now).toISOString();
  return {
    id: deliveryIdFor(ids.eventId, ids.endpointId),
    ...ids,
    state: 'pending',
    attemptCount: 0,
    automaticAttemptCount: 0,
    lastStatusCode: null,
    nextRetryAt: at,
    failureReason: null,
    attempts: [],
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/** Only a 2xx answer counts; redirects are not followed and fail like any other status. */
export const isSuccess = (result: AttemptResult): boolean => result.statusCode !== null && result.statusCode >= 200 && result.statusCode <= 299;

/**
 * The delivery after one attempt, and in how many seconds the automatic retry is due (null: none).
 * A failed manual retry schedules nothing, but leaves pending automatic retries in place.
 */
export function afterAttempt(
  delivery: WebhookDelivery,
  result: AttemptResult,
  { manual, now }: { manual: boolean; now: number },
): { delivery: WebhookDelivery; retryInSeconds: number | null } {
  const at = new Date(now).toISOString();
  const automaticAttemptCount = delivery.automaticAttemptCount + (manual ? 0 : 1);
  const succeeded = isSuccess(result);
  const retryInSeconds = succeeded || manual ? null : retryDelaySeconds(automaticAttemptCount);
  const nextRetryAt = retryInSeconds === null ? null : new Date(now + retryInSeconds * 1000).toISOString();
  let state: DeliveryState;
  if (succeeded) state = 'succeeded';
  else if (retryInSeconds !== null) state = 'retrying';
  else if (manual && delivery.state === 'retrying') state = 'retrying';
  else state = 'failed';
  const attempt: DeliveryAttempt = { attempt: delivery.attemptCount + 1, at, manual, ...result, nextRetryAt };
  return {
    retryInSeconds,
    delivery: {
      ...delivery,
      state,
      attemptCount: delivery.attemptCount + 1,
      automaticAttemptCount,
      lastStatusCode: result.statusCode,
      nextRetryAt: state === 'retrying' ? (nextRetryAt ?? delivery.nextRetryAt) : null,
      attempts: [...delivery.attempts, attempt].slice(-MAX_LOGGED_ATTEMPTS),
      updatedAt: at,
    },
  };
}

/** Stops a delivery without sending: its endpoint was deleted or disabled, or its event is past retention. */
export function abandonDelivery(delivery: WebhookDelivery, reason: string, now: number): WebhookDelivery {
  return { ...delivery, state: 'failed', failureReason: reason, nextRetryAt: null, updatedAt: new Date(now).toISOString() };
}

export const toDeliveryResource = (d: WebhookDelivery): WebhookDeliveryResource => ({
  id: d.id,
  mode: d.mode,
  endpointId: d.endpointId,
  eventId: d.eventId,
  eventType: d.eventType,
  state: d.state,
  attemptCount: d.attemptCount,
  lastStatusCode: d.lastStatusCode,
  nextRetryAt: d.nextRetryAt,
  failureReason: d.failureReason,
  attempts: d.attempts,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/** The queue message of one delivery attempt; `manual` marks a retry asked for through the API. */
export interface DeliveryMessage {
  deliveryId: string;
  manual?: boolean;
}
