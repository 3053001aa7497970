import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_CLASSES, type OperationClass, type RateLimit } from '../../shared/domain/merchant.ts';
import { DEFAULT_RATE_LIMITS, decideRate, limitFor, rateWindows } from '../../shared/domain/rate-limits.ts';

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

  it('keeps the day counter at least until its day has ended, so a late write never restarts a live day', () => {
    fc.assert(
      fc.property(fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') }), (now) => {
        const w = rateWindows(now);
        const dayEnd = Math.floor(now / DAY) * DAY + DAY;
        expect(w.dayExpiresAt * 1000).toBeGreaterThanOrEqual(dayEnd);
      }),
    );
  });

  it('names minutes so that a later minute sorts after an earlier one, across hours, days and years', () => {
    fc.assert(
      fc.property(fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') }), fc.integer({ min: 1, max: 400 * DAY }), (now, later) => {
        expect(rateWindows(now + later).minute >= rateWindows(now).minute).toBe(true);
        if (later >= MINUTE) expect(rateWindows(now + later).minute > rateWindows(now).minute).toBe(true);
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

describe('decideRate', () => {
  const w = rateWindows(at('2026-01-01T10:05:30.000Z'));
  const limit = { perMinute: 3, perDay: 10 };

  it.each<[string, Parameters<typeof decideRate>[0], ReturnType<typeof decideRate>]>([
    ['no counter yet: the minute starts', undefined, { kind: 'new_minute', minute: '2026-01-01T10:05' }],
    ['a counter of an earlier minute: this minute starts', { dayCount: 7, minute: '2026-01-01T10:04', minuteCount: 3 }, { kind: 'new_minute', minute: '2026-01-01T10:05' }],
    ['this minute with room: counted in it', { dayCount: 7, minute: '2026-01-01T10:05', minuteCount: 2 }, { kind: 'same_minute', minute: '2026-01-01T10:05' }],
    ['this minute full: refused until the next minute', { dayCount: 7, minute: '2026-01-01T10:05', minuteCount: 3 }, { kind: 'refused', retryAfterSeconds: 30 }],
    ['the day full: refused until UTC midnight', { dayCount: 10, minute: '2026-01-01T10:04', minuteCount: 1 }, { kind: 'refused', retryAfterSeconds: 50_070 }],
    ['both full: the day decides, the next minute would refuse too', { dayCount: 10, minute: '2026-01-01T10:05', minuteCount: 3 }, { kind: 'refused', retryAfterSeconds: 50_070 }],
    // A request that reaches the store after its minute turned: counted in the newer minute, never rewinding it.
    ['a later minute with room: counted in that minute', { dayCount: 7, minute: '2026-01-01T10:06', minuteCount: 1 }, { kind: 'same_minute', minute: '2026-01-01T10:06' }],
    ['a later minute full: refused', { dayCount: 7, minute: '2026-01-01T10:06', minuteCount: 3 }, { kind: 'refused', retryAfterSeconds: 30 }],
  ])('%s', (_label, counter, expected) => {
    expect(decideRate(counter, w, limit)).toEqual(expected);
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
