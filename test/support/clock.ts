import type { TestSandbox } from './sandbox.ts';

/**
 * Moves the sandbox clock to just after the start of the next UTC minute, so that a burst of requests that must
 * share one rate window has (nearly) a whole minute of real time to run in.
 */
export function alignToNextMinute(sandbox: TestSandbox, marginMs = 50): void {
  const intoMinute = sandbox.clock.now() % 60_000;
  sandbox.advance((60_000 - intoMinute + marginMs) / 1000);
}

/** Seconds from the sandbox's now to the next UTC midnight. */
export function secondsToUtcMidnight(sandbox: TestSandbox): number {
  const now = sandbox.clock.now();
  return (Math.floor(now / 86_400_000) * 86_400_000 + 86_400_000 - now) / 1000;
}

/** Moves the sandbox clock to just after the next UTC midnight when fewer than `needSeconds` remain in the day. */
export function ensureRoomInUtcDay(sandbox: TestSandbox, needSeconds = 600): void {
  const left = secondsToUtcMidnight(sandbox);
  if (left < needSeconds) sandbox.advance(left + 0.05);
}
