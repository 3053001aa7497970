/**
 * The one way an operation is tried again. A named policy (policies.ts) says how many tries, how long to wait
 * between them and for how long at most; the caller says which failures deserve another try, what to do between
 * tries (read again) and what to answer when they are spent. Dependency-free: the merchant SDK bundles it.
 */

/** How the wait after the n-th failed try grows, before jitter. */
export type Backoff =
  /** Tries again at once: the rival is a single other writer, and the fresh read settles it. */
  | { kind: 'none' }
  /** stepMs × n. */
  | { kind: 'linear'; stepMs: number }
  /** firstMs × factor^(n−1), at most capMs (before jitter; maxDelayMs bounds the wait after it). */
  | { kind: 'exponential'; firstMs: number; factor: number; capMs?: number };

/**
 * How the wait is spread: none (exactly the backoff), full (uniform in [0, backoff)), half (uniform in
 * [backoff / 2, backoff)): writers that collided must not collide again in step.
 */
export type Jitter = 'none' | 'full' | 'half';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  readonly jitter: Jitter;
  /** A failure this long after the first try is final, whatever the count. */
  readonly deadlineMs?: number;
  /** The longest wait, also for a wait the failure asks for (Retry-After). */
  readonly maxDelayMs?: number;
}

export interface RetryOptions<T> {
  /** Whether this failure deserves another try; any other is thrown at once. */
  isRetryable(error: unknown): boolean;
  /** A result that is a failure worth another try (a 5xx reply); the last one is returned when the tries are spent. */
  retryResult?(value: T): boolean;
  /** The wait a failure asks for itself (Retry-After), instead of the policy's; null to keep the policy's. */
  requestedDelayMs?(error: unknown): number | null;
  /** Runs after the wait, before the next try: typically a fresh read to decide again on. */
  beforeRetry?(error: unknown, failedAttempt: number): Promise<void> | void;
  /** The answer once the tries (or the deadline) are spent; by default the last error is thrown. */
  onExhausted?(error: unknown): T | Promise<T>;
  /** Injectable for tests: waiting, randomness and the monotonic time the deadline is measured in. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The wait after `failedAttempt` (1-based) failed, for a `random` in [0, 1).
 *
 * @example
 * delayMs(policies.transactionContention, 3, Math.random()); // somewhere in [0, 16) ms
 */
export function delayMs(policy: RetryPolicy, failedAttempt: number, random: number): number {
  const { backoff } = policy;
  const base =
    backoff.kind === 'none' ? 0 : backoff.kind === 'linear' ? backoff.stepMs * failedAttempt : Math.min(backoff.capMs ?? Infinity, backoff.firstMs * backoff.factor ** (failedAttempt - 1));
  const spread = policy.jitter === 'full' ? base * random : policy.jitter === 'half' ? base * (0.5 + random / 2) : base;
  return Math.min(policy.maxDelayMs ?? Infinity, spread);
}

/**
 * Runs `attempt` until it succeeds, fails with an error that is not retryable, or the policy's tries or deadline are
 * spent (then `onExhausted`, or the last error thrown).
 *
 * @example
 * const reply = await retry({ ...policies.bankCall, maxAttempts: 3 }, () => once(call), {
 *   isRetryable: () => true,
 *   retryResult: (reply) => reply.status >= 500,
 * });
 */
export async function retry<T>(policy: RetryPolicy, attempt: (n: number) => Promise<T>, options: RetryOptions<T>): Promise<T> {
  const { sleep = realSleep, random = Math.random, now = () => performance.now() } = options;
  const giveUpAt = policy.deadlineMs === undefined ? Infinity : now() + policy.deadlineMs;
  for (let n = 1; ; n++) {
    let failure: unknown;
    try {
      const value = await attempt(n);
      if (!options.retryResult?.(value) || n >= policy.maxAttempts || now() >= giveUpAt) return value;
      failure = value;
    } catch (error) {
      if (!options.isRetryable(error)) throw error;
      if (n >= policy.maxAttempts || now() >= giveUpAt) {
        if (options.onExhausted) return options.onExhausted(error);
        throw error;
      }
      failure = error;
    }
    const requested = options.requestedDelayMs?.(failure) ?? null;
    await sleep(requested === null ? delayMs(policy, n, random()) : Math.min(policy.maxDelayMs ?? Infinity, requested));
    await options.beforeRetry?.(failure, n);
  }
}
