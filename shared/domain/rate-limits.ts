/**
 * Rate-limit windows of the spec: per merchant and operation class, per UTC minute and per UTC day. Pure.
 */
import type { Merchant, OperationClass, RateLimit } from './merchant.ts';

export const DEFAULT_RATE_LIMITS: Record<OperationClass, RateLimit> = {
  charge: { perMinute: 120, perDay: 10_000 },
  sessions: { perMinute: 240, perDay: 20_000 },
  reads: { perMinute: 600, perDay: 100_000 },
};

export const limitFor = (merchant: Pick<Merchant, 'rateLimits'>, operationClass: OperationClass): RateLimit =>
  merchant.rateLimits[operationClass] ?? DEFAULT_RATE_LIMITS[operationClass];

export interface RateWindows {
  /** e.g. 2026-01-01T10:05 */
  minute: string;
  /** e.g. 2026-01-01 */
  day: string;
  /** Whole seconds (at least 1) until each window resets: the Retry-After value. */
  minuteResetsInSeconds: number;
  dayResetsInSeconds: number;
  /** Epoch seconds after which the window's counter may be dropped (TTL). */
  minuteExpiresAt: number;
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
    // Kept a little past the window so that a late write never recreates a live counter.
    minuteExpiresAt: Math.floor((minuteStart + 2 * 60_000) / 1000),
    dayExpiresAt: Math.floor((dayStart + 2 * 86_400_000) / 1000),
  };
}
