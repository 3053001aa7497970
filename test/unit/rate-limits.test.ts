import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_CLASSES, type OperationClass, type RateLimit } from '../../shared/domain/merchant.ts';
import { DEFAULT_RATE_LIMITS, limitFor, rateWindows } from '../../shared/domain/rate-limits.ts';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const DAY = 86_400_000;

describe('rateWindows', () => {
  it.each([
    ['2026-01-01T10:05:00.000Z', '2026-01-01T10:05', '2026-01-01', 60, 50_100],
    ['2026-01-01T10:05:30.000Z', '2026-01-01T10:05', '2026-01-01', 30, 50_070],
    ['2026-01-01T10:05:58.500Z', '2026-01-01T10:05', '2026-01-01', 2, 50_042],
    ['2026-01-01T10:05:59.001Z', '2026-01-01T10:05', '2026-01-01', 1, 50_041],
    // Partial seconds round up, never to 0: a client that waits Retry-After must find the window reset.
    ['2026-01-01T10:05:59.999Z', '2026-01-01T10:05', '2026-01-01', 1, 50_041],
    ['2026-01-01T23:59:59.999Z', '2026-01-01T23:59', '2026-01-01', 1, 1],
    ['2026-01-02T00:00:00.000Z', '2026-01-02T00:00', '2026-01-02', 60, 86_400],
    // 22:00 in Caracas (UTC-4) on 31 December is already 1 January in UTC: the windows follow UTC.
    ['2026-01-01T02:00:00.000Z', '2026-01-01T02:00', '2026-01-01', 60, 79_200],
  ])('at %s names the minute %s and the day %s and resets in %i s / %i s', (iso, minute, day, minuteReset, dayReset) => {
    // act
    const w = rateWindows(at(iso));
    // assess
    expect(w).toMatchObject({ minute, day, minuteResetsInSeconds: minuteReset, dayResetsInSeconds: dayReset });
  });

  it('keeps each counter at least until its window has ended, so a late write never restarts a live window', () => {
    fc.assert(
      fc.property(fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') }), (now) => {
        const w = rateWindows(now);
        const minuteEnd = Math.floor(now / MINUTE) * MINUTE + MINUTE;
        const dayEnd = Math.floor(now / DAY) * DAY + DAY;
        expect(w.minuteExpiresAt * 1000).toBeGreaterThanOrEqual(minuteEnd);
        expect(w.dayExpiresAt * 1000).toBeGreaterThanOrEqual(dayEnd);
      }),
    );
  });

  it('gives a Retry-After of whole seconds, 1 or more, that ends at the next minute / UTC midnight and not later', () => {
    fc.assert(
      fc.property(fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') }), (now) => {
        const w = rateWindows(now);
        for (const [resets, size, max] of [
          [w.minuteResetsInSeconds, MINUTE, 60],
          [w.dayResetsInSeconds, DAY, 86_400],
        ] as const) {
          expect(Number.isInteger(resets)).toBe(true);
          expect(resets).toBeGreaterThanOrEqual(1);
          expect(resets).toBeLessThanOrEqual(max);
          const windowEnd = Math.floor(now / size) * size + size;
          // Waiting that long reaches the next window; one second less would not.
          expect(now + resets * 1000).toBeGreaterThanOrEqual(windowEnd);
          expect(now + (resets - 1) * 1000).toBeLessThan(windowEnd);
        }
        const later = rateWindows(now + w.minuteResetsInSeconds * 1000);
        expect(later.minute).not.toBe(w.minute);
        expect(rateWindows(now + w.dayResetsInSeconds * 1000).day).not.toBe(w.day);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('limitFor', () => {
  it.each<[OperationClass, RateLimit]>([
    ['charge', { perMinute: 120, perDay: 10_000 }],
    ['sessions', { perMinute: 240, perDay: 20_000 }],
    ['reads', { perMinute: 600, perDay: 100_000 }],
  ])('uses the spec default for %s when the merchant has no override', (operationClass, expected) => {
    expect(limitFor({ rateLimits: {} }, operationClass)).toEqual(expected);
  });

  it.each(OPERATION_CLASSES)('uses the merchant override for %s and the defaults for the other classes', (overridden) => {
    // prepare
    const raised = { perMinute: 1_000, perDay: 1_000_000 };
    const merchant = { rateLimits: { [overridden]: raised } };
    // act / assess
    for (const operationClass of OPERATION_CLASSES) {
      const expected = operationClass === overridden ? raised : DEFAULT_RATE_LIMITS[operationClass];
      expect(limitFor(merchant, operationClass)).toEqual(expected);
    }
  });
});
