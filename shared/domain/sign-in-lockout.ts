/**
 * Sign-in lockout: after MAX_FAILURES failed attempts for one email within the current 15-minute window and the one
 * before it, that email is refused. Each attempt is reserved before its password or code is checked, with one
 * conditional ADD that refuses past the limit (so parallel guesses cannot all be checked), and given back when it
 * was not a failure. Windows are fixed; counting the window before too makes the lock slide, so failures made just
 * before a window ends still count after it and a window's end never frees an email at once. Counted per email
 * whether or not an account has it, so the answers never tell which emails exist. Pure: no I/O.
 */
export const MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

/** The window `now` falls in: failures are counted per email and window. */
export const lockoutWindow = (now: number): number => Math.floor(now / LOCKOUT_WINDOW_MS);

/** How many attempts the current window may still count, given the failures of the window before. */
export const attemptsLeft = (previousFailures: number): number => MAX_FAILURES - previousFailures;

/** Failed attempts of one email in the window `now` falls in and in the one before. */
export interface RecentFailures {
  current: number;
  previous: number;
}

/**
 * Milliseconds until the email may try again, or 0 when it may try now. Locked by the current window's failures, it
 * stays locked through the next window (they are then the previous window's); locked only with the previous
 * window's help, it is free when the current window ends.
 *
 * @example
 * lockedForMs({ current: 5, previous: 0 }, Date.now()) // > 15 minutes: the rest of this window and the next
 */
export function lockedForMs(failures: RecentFailures, now: number): number {
  if (failures.current + failures.previous < MAX_FAILURES) return 0;
  const windowEnd = (lockoutWindow(now) + 1) * LOCKOUT_WINDOW_MS;
  return (failures.current >= MAX_FAILURES ? windowEnd + LOCKOUT_WINDOW_MS : windowEnd) - now;
}
