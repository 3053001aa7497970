import { describe, expect, it } from 'vitest';
import { LOCKOUT_WINDOW_MS, lockedForMs, MAX_FAILURES } from '../../shared/domain/sign-in-lockout.ts';

const WINDOW_START = 1_000 * LOCKOUT_WINDOW_MS;
const SECOND = 1_000;

describe('lockedForMs', () => {
  it('lets an email try while its failures of this window and the one before stay under the limit', () => {
    expect(lockedForMs({ current: MAX_FAILURES - 1, previous: 0 }, WINDOW_START)).toBe(0);
    expect(lockedForMs({ current: 2, previous: MAX_FAILURES - 3 }, WINDOW_START)).toBe(0);
  });

  it('keeps an email locked by failures made just before a window ends through the whole next window', () => {
    const lastSecond = WINDOW_START + LOCKOUT_WINDOW_MS - SECOND;
    expect(lockedForMs({ current: MAX_FAILURES, previous: 0 }, lastSecond)).toBe(SECOND + LOCKOUT_WINDOW_MS);
    // A second later the same failures are the previous window's: still locked until that next window ends.
    expect(lockedForMs({ current: 0, previous: MAX_FAILURES }, lastSecond + SECOND)).toBe(LOCKOUT_WINDOW_MS);
  });

  it("frees at the end of this window an email locked only with the previous window's failures", () => {
    expect(lockedForMs({ current: 2, previous: MAX_FAILURES - 2 }, WINDOW_START + 60 * SECOND)).toBe(LOCKOUT_WINDOW_MS - 60 * SECOND);
  });
});
