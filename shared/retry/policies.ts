/**
 * Every retry policy of the service, declared once with why it is what it is (docs/retries.md has them as a table).
 * Callers pick one by name and pass it to retry(); only the number of tries of bankCall (and of sdkCall, the SDK's
 * maxRetries) is the caller's, since only the caller knows whether its call is safe to repeat.
 */
import type { RetryPolicy } from './retry.ts';

/**
 * A call to a bank or processor (Mercantil, Stripe, the reference connector) that failed on the network or with a
 * 5xx: a short pause that grows (100 ms, 200 ms, ...). Reads and idempotent operations only, so the caller sets
 * maxAttempts (its `retries` + 1); the function's own deadline bounds the rest.
 */
const bankCall: RetryPolicy = { maxAttempts: 1, backoff: { kind: 'linear', stepMs: 100 }, jitter: 'none' };

/**
 * The merchant SDK's call to our API after a network error, 409 idempotency_in_progress, 429 or 5xx: exponential
 * from 500 ms with half jitter, so the servers of many merchants do not come back in step after an outage; a
 * Retry-After is honoured; no wait over 8 s. Three tries by default (maxRetries 2).
 */
const sdkCall: RetryPolicy = { maxAttempts: 3, backoff: { kind: 'exponential', firstMs: 500, factor: 2 }, jitter: 'half', maxDelayMs: 8_000 };

/**
 * A request whose write on a session lost to another (its version check, or a transaction conflict): decided again
 * on a fresh read. Full jitter over a window doubling from 4 ms to 128 ms, because DynamoDB cancels both sides of a
 * conflict and they must not collide again in step. 40 losses: each but a conflict means another request moved the
 * session, which soon leaves it in a state that refuses the rest. 4 s: well inside a function's 10 s, since on a
 * loaded machine every round trip of a try is slow too.
 */
const transactionContention: RetryPolicy = {
  maxAttempts: 40,
  backoff: { kind: 'exponential', firstMs: 4, factor: 2, capMs: 128 },
  jitter: 'full',
  deadlineMs: 4_000,
};

/**
 * Writing a bank's answer (a server-to-server charge settled) that lost to a card changing meanwhile or to a
 * transaction conflict: as transactionContention, but with no deadline, since the bank has answered and its answer
 * must not be lost to a slow machine; the 40 tries alone bound it.
 */
const settlementContention: RetryPolicy = { maxAttempts: 40, backoff: { kind: 'exponential', firstMs: 4, factor: 2, capMs: 128 }, jitter: 'full' };

/**
 * Parallel refunds of one transaction, each writing its sums: decided again on a fresh read, up to 10 tries, with
 * full jitter over a window growing by 25 ms a try, so the writers spread out. Then 409 refund_conflict (the
 * reservation) or left pending for a read to settle (the settlement).
 */
const refundRace: RetryPolicy = { maxAttempts: 10, backoff: { kind: 'linear', stepMs: 25 }, jitter: 'full' };

/**
 * A version-checked write with a single likely rival (a manual webhook retry beside the automatic one, two deletes
 * of one card): read again and decide again at once, three tries; the fresh read usually ends it (nothing to do).
 */
const versionRace: RetryPolicy = { maxAttempts: 3, backoff: { kind: 'none' }, jitter: 'none' };

/**
 * Removing or demoting a dashboard user while another admin change races it (the remaining admin is checked in the
 * same transaction): decided again on fresh reads, up to 8 tries, with full jitter over a window growing by 20 ms a
 * try, since two transactions that cancelled each other would meet again at once. Then 409 users_changed.
 */
const adminGuardRace: RetryPolicy = { maxAttempts: 8, backoff: { kind: 'linear', stepMs: 20 }, jitter: 'full' };

/**
 * A stream record a worker failed on (a throttle, a brief outage of SQS or Scheduler): 250 ms, then 1 s, in the same
 * invocation; then the record is reported failed for the poller to bring back later, or parked once old enough
 * (shared/background/stream-records.ts). No jitter: the records of one batch fail and retry independently anyway.
 */
const streamRecord: RetryPolicy = { maxAttempts: 3, backoff: { kind: 'exponential', firstMs: 250, factor: 4 }, jitter: 'none' };

export const policies = { bankCall, sdkCall, transactionContention, settlementContention, refundRace, versionRace, adminGuardRace, streamRecord } as const;
