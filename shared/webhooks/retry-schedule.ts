/**
 * When a failed webhook delivery is tried again. The spec says "up to 5 retries with exponential backoff" and
 * leaves the intervals open; ours start at 30 seconds and grow fourfold, so the last retry comes about 2 h 50 min
 * after the first attempt. All fit in an SQS visibility timeout (at most 12 hours), which is how they are applied.
 */

export const MAX_RETRIES = 5;
/** The first attempt plus the retries. */
export const MAX_ATTEMPTS = MAX_RETRIES + 1;
export const FIRST_RETRY_DELAY_SECONDS = 30;
export const BACKOFF_FACTOR = 4;

/** Seconds to wait after the failed attempt number `attempt` (1-based), or null when the retries are spent. */
export function retryDelaySeconds(attempt: number): number | null {
  if (attempt < 1 || attempt >= MAX_ATTEMPTS) return null;
  return FIRST_RETRY_DELAY_SECONDS * BACKOFF_FACTOR ** (attempt - 1);
}

/** The whole schedule, for documentation and tests: [30, 120, 480, 1920, 7680]. */
export const RETRY_DELAYS_SECONDS: readonly number[] = Array.from({ length: MAX_RETRIES }, (_, i) => retryDelaySeconds(i + 1)!);
