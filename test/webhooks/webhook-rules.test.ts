import { describe, expect, it } from 'vitest';
import { afterAttempt, deliveryIdFor, newDelivery, type AttemptResult } from '../../shared/webhooks/delivery.ts';
import { RETRY_DELAYS_SECONDS, retryDelaySeconds } from '../../shared/webhooks/retry-schedule.ts';
import { isSubscribed } from '../../shared/webhooks/subscriptions.ts';

describe('retry schedule', () => {
  it('backs off exponentially over 5 retries: 30 s, 2 min, 8 min, 32 min, 128 min', () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([30, 120, 480, 1920, 7680]);
    expect(retryDelaySeconds(6)).toBeNull();
    expect(retryDelaySeconds(0)).toBeNull();
  });
});

describe('isSubscribed', () => {
  it('an empty list takes every event but the optional gateway-specific ones and webhook.test', () => {
    expect(isSubscribed([], 'session.expired')).toBe(true);
    expect(isSubscribed([], 'charge.approved')).toBe(true);
    expect(isSubscribed([], 'card.authentication_expiring')).toBe(false);
    expect(isSubscribed([], 'card.authentication_expired')).toBe(false);
    expect(isSubscribed([], 'webhook.test')).toBe(false);
  });
  it('a list takes exactly what it names, optional events included', () => {
    expect(isSubscribed(['card.authentication_expired'], 'card.authentication_expired')).toBe(true);
    expect(isSubscribed(['card.authentication_expired'], 'session.expired')).toBe(false);
  });
});

describe('afterAttempt', () => {
  const now = Date.UTC(2026, 0, 1);
  const fresh = () => newDelivery({ merchantId: 'mer_1', mode: 'test', endpointId: 'we_1', eventId: 'evt_1', eventType: 'session.expired' }, now);
  const answer = (statusCode: number | null): AttemptResult => ({ statusCode, durationMs: 12, responseExcerpt: 'ok', error: statusCode === null ? 'timeout: no answer' : null });

  it('a 2xx succeeds; a redirect or any other status schedules the next retry', () => {
    expect(afterAttempt(fresh(), answer(204), { manual: false, now })).toMatchObject({ retryInSeconds: null, delivery: { state: 'succeeded', nextRetryAt: null } });
    for (const status of [302, 404, 500, null]) {
      const { delivery, retryInSeconds } = afterAttempt(fresh(), answer(status), { manual: false, now });
      expect(retryInSeconds).toBe(30);
      expect(delivery).toMatchObject({ state: 'retrying', attemptCount: 1, nextRetryAt: new Date(now + 30_000).toISOString(), lastStatusCode: status });
    }
  });

  it('fails for good after the sixth automatic attempt', () => {
    let delivery = fresh();
    const delays: (number | null)[] = [];
    for (let i = 0; i < 6; i++) {
      const outcome = afterAttempt(delivery, answer(500), { manual: false, now });
      delays.push(outcome.retryInSeconds);
      delivery = outcome.delivery;
    }
    expect(delays).toEqual([...RETRY_DELAYS_SECONDS, null]);
    expect(delivery).toMatchObject({ state: 'failed', attemptCount: 6, nextRetryAt: null });
    expect(delivery.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a failed manual retry schedules nothing and leaves an automatic schedule in place', () => {
    const retrying = afterAttempt(fresh(), answer(500), { manual: false, now }).delivery;
    const manual = afterAttempt(retrying, answer(500), { manual: true, now: now + 1000 });
    expect(manual.retryInSeconds).toBeNull();
    expect(manual.delivery).toMatchObject({ state: 'retrying', automaticAttemptCount: 1, attemptCount: 2, nextRetryAt: retrying.nextRetryAt });
    const spent = { ...retrying, state: 'failed' as const };
    expect(afterAttempt(spent, answer(500), { manual: true, now }).delivery.state).toBe('failed');
  });

  it('derives the delivery id from event and endpoint, so a replayed stream record makes the same delivery', () => {
    expect(deliveryIdFor('evt_1', 'we_1')).toBe(deliveryIdFor('evt_1', 'we_1'));
    expect(deliveryIdFor('evt_1', 'we_1')).not.toBe(deliveryIdFor('evt_1', 'we_2'));
    expect(deliveryIdFor('evt_1', 'we_1')).toMatch(/^wd_[0-9A-Za-z]{24}$/);
  });
});
