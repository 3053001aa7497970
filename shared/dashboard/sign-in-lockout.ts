/**
 * Sign-in lockout: after MAX_FAILURES failed attempts for one email within a 15-minute window, that email is refused
 * until the window ends. Windows are fixed (counted with one atomic ADD per failure, no read-modify-write race).
 * Counted per email whether or not an account has it, so the answers never tell which emails exist. Pure: no I/O.
 */
export const MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

/** The window `now` falls in: failures are counted per email and window. */
export const lockoutWindow = (now: number): number => Math.floor(now / LOCKOUT_WINDOW_MS);

/**
 * Milliseconds until the email may try again given its failures in the current window, or 0 when it may try now.
 *
 * @example
 * lockedForMs(5, Date.now()) // > 0: locked until the window ends
 */
export function lockedForMs(failures: number, now: number): number {
  if (failures < MAX_FAILURES) return 0;
  return (lockoutWindow(now) + 1) * LOCKOUT_WINDOW_MS - now;
}
