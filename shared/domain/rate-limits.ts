/**
 * Rate-limit windows of the spec: per merchant and operation class, per UTC minute and per UTC day; and the budget
 * of one checkout session, counted the same way. Pure.
 */
import type { Merchant, OperationClass, RateLimit } from './merchant.ts';

export const DEFAULT_RATE_LIMITS: Record<OperationClass, RateLimit> = {
  charge: { perMinute: 120, perDay: 10_000 },
  sessions: { perMinute: 240, perDay: 20_000 },
  reads: { perMinute: 600, perDay: 100_000 },
  // Not in the spec's table, which names only the checkout for `charge`: secret-key money movement, kept apart so
  // that no buyer-facing call can use it up (docs/security.md, finding 5). The checkout's figures.
  refunds: { perMinute: 120, perDay: 10_000 },
  server_charges: { perMinute: 120, perDay: 10_000 },
};

export const limitFor = (merchant: Pick<Merchant, 'rateLimits'>, operationClass: OperationClass): RateLimit =>
  merchant.rateLimits[operationClass] ?? DEFAULT_RATE_LIMITS[operationClass];

export interface RateWindows {
  /** e.g. 2026-01-01T10:05; ids of later minutes sort after earlier ones. */
  minute: string;
  /** e.g. 2026-01-01 */
  day: string;
  /** Whole seconds (at least 1) until each window resets: the Retry-After value. */
  minuteResetsInSeconds: number;
  dayResetsInSeconds: number;
  /** Epoch seconds after which the day's counter may be dropped (TTL). */
  dayExpiresAt: number;
}

export function rateWindows(now: number): RateWindows {
  const iso = new Date(now).toISOString();
  const minuteStart = Math.floor(now / 60_000) * 60_000;
  const dayStart = Math.floor(now / 86_400_000) * 86_400_000;
  return {
    minute: iso.slice(0, 16),
    day: iso.slice(0, 10),
    minuteResetsInSeconds: Math.max(1, Math.ceil((minuteStart + 60_000 - now) / 1000)),
    dayResetsInSeconds: Math.max(1, Math.ceil((dayStart + 86_400_000 - now) / 1000)),
    // Kept a day past the window so that a late write never recreates a live counter.
    dayExpiresAt: Math.floor((dayStart + 2 * 86_400_000) / 1000),
  };
}

/** One merchant's counter of one class for one UTC day: the day's count and the count of its latest minute. */
export interface RateCounter {
  dayCount: number;
  /** Id of the latest minute counted (RateWindows.minute). */
  minute: string;
  minuteCount: number;
}

/** How one more request is counted, judged from the counter as it stands. */
export type RateDecision =
  /** Add to the counter's own minute (the request's minute, or a later one a faster request already started). */
  | { kind: 'same_minute'; minute: string }
  /** The counter is at an earlier minute, or absent: the request's minute starts at 1. */
  | { kind: 'new_minute'; minute: string }
  | { kind: 'refused'; retryAfterSeconds: number };

export function decideRate(counter: Partial<RateCounter> | undefined, w: RateWindows, limit: RateLimit): RateDecision {
  // A full day answers with the day's Retry-After even when the minute is full too: the next minute would refuse as well.
  if ((counter?.dayCount ?? 0) >= limit.perDay) return { kind: 'refused', retryAfterSeconds: w.dayResetsInSeconds };
  // A request that reaches the store after its minute has turned counts in the newer minute, never rewinds it.
  if (counter?.minute !== undefined && counter.minute >= w.minute) {
    if ((counter.minuteCount ?? 0) >= limit.perMinute) return { kind: 'refused', retryAfterSeconds: w.minuteResetsInSeconds };
    return { kind: 'same_minute', minute: counter.minute };
  }
  return { kind: 'new_minute', minute: w.minute };
}

/**
 * What one open checkout session may send to POST /v1/checkout/charge, counted before the merchant's `charge` class,
 * so that one `cs_` reference takes at most a sixth of the spec's 120 a minute. A buyer needs a handful; a burst of
 * double clicks and retries stays within it. Closed sessions count nothing (rate-limit middleware).
 */
export const CHECKOUT_SESSION_BUDGET: RateLimit = { perMinute: 20, perDay: 200 };
/** The counter name of that budget, beside the merchants' classes in the rate-limit store. */
export const CHECKOUT_SESSION_COUNTER = 'checkout_session';

/**
 * How often the anonymous reads of one USD processor session may open its pending payment at the processor, until
 * one is recorded: once a minute (reads that arrive together open it once) and five times in all (a session lives
 * an hour at most). Past it the page shows without one, and the buyer's first charge opens it (the charge's own
 * budget above bounds that).
 */
export const PROCESSOR_OPEN_BUDGET: RateLimit = { perMinute: 1, perDay: 5 };
/** The counter name of that budget, per session. */
export const PROCESSOR_OPEN_COUNTER = 'processor_open';
