/** Latency of one run, in milliseconds with sub-millisecond precision (autocannon's own histogram keeps whole ms). */
export interface LatencyStats {
  p50: number;
  p99: number;
  max: number;
  /** Samples kept after the warm-up share was dropped. */
  samples: number;
  requestsPerSecond: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/**
 * Nearest-rank p50, p99 and max of any sample (NaN when empty).
 *
 * @example
 * percentiles([4, 1, 3, 2]); // { p50: 2, p99: 4, max: 4 }
 */
export function percentiles(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

/**
 * Drops the first `warmupShare` of the samples (in arrival order), then summarises the rest.
 *
 * @example
 * summariseLatencies([3.1, 1.2, 1.4, 1.3], { warmupShare: 0.25, elapsedSeconds: 1, errors: 0 }).p50; // 1.3
 */
export function summariseLatencies(inArrivalOrder: number[], { warmupShare, elapsedSeconds, errors }: { warmupShare: number; elapsedSeconds: number; errors: number }): LatencyStats {
  const kept = inArrivalOrder.slice(Math.floor(inArrivalOrder.length * warmupShare));
  return {
    ...percentiles(kept),
    samples: kept.length,
    requestsPerSecond: inArrivalOrder.length / elapsedSeconds,
    errors,
  };
}
