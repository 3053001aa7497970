/**
 * The worker manifest: the background functions that are not HTTP routes. Like shared/routes.ts for the API, it
 * drives both the CDK stack (one Lambda per entry, wired to its trigger) and the sandbox (which runs the same
 * modules from its stream reader, in-process queues and scheduler stand-in).
 */
import type { FunctionNeed } from './function-needs.ts';
import { MAX_ATTEMPTS } from './webhooks/retry-schedule.ts';

export interface QueueDefinition {
  /** How long a received message stays hidden when its consumer does not say otherwise. */
  visibilityTimeoutSeconds: number;
  /** Receives before the message is moved to the queue's dead-letter queue. */
  maxReceiveCount: number;
  /** The environment variable that carries the queue's URL to the functions that send to it. */
  urlEnv: string;
}

export const queues = {
  webhookDeliveries: {
    // Six times the sender's 50-second timeout (AWS's advice): a message is not handed out twice while in flight.
    visibilityTimeoutSeconds: 300,
    // One receive per attempt: the first and the five retries; the next receive moves it to the dead-letter queue.
    maxReceiveCount: MAX_ATTEMPTS,
    urlEnv: 'WEBHOOK_DELIVERIES_QUEUE_URL',
  },
  sessionExpiry: {
    visibilityTimeoutSeconds: 120,
    maxReceiveCount: 5,
    urlEnv: 'SESSION_EXPIRY_QUEUE_URL',
  },
} as const satisfies Record<string, QueueDefinition>;
export type QueueName = keyof typeof queues;

/** Stream records a worker wants: the event names, and items whose partition key starts with the prefix. */
export interface StreamFilter {
  eventNames: ('INSERT' | 'MODIFY' | 'REMOVE')[];
  pkPrefix: string;
}

/**
 * Batches of a shard each stream worker handles at once: its mapping's ParallelizationFactor in AWS (10 at most), the
 * sandbox's stream reader alike; records of one item stay in stream order. At 1, every batch waits for the one before
 * it, and the events in it for that batch's slowest record (the planner's schedules for a burst of new sessions).
 */
export const STREAM_BATCHES_PER_SHARD = 10;

/** daily: once a day at that UTC hour (an EventBridge Scheduler cron in AWS; the sandbox clock crossing it locally). */
export type WorkerTrigger = { kind: 'stream'; filter: StreamFilter } | { kind: 'queue'; queue: QueueName } | { kind: 'schedule' } | { kind: 'daily'; hourUtc: number };

export interface WorkerDefinition {
  /** Module relative to the project root; it exports `handler` (Lambda) and `build(deps)` (sandbox, tests). */
  entry: string;
  trigger: WorkerTrigger;
  /** Queues the worker sends to, so the stack grants exactly those. */
  sendsTo: QueueName[];
  /** Item access to the table: the planner and the hand-over only read the stream or their payload. */
  table: 'none' | 'read-write';
  /** What the worker uses beyond the table and its queues; the stack grants exactly these, and its deps hold their parts (shared/function-needs.ts). */
  needs?: readonly FunctionNeed[];
}

export const workers = {
  dispatchWebhooks: {
    entry: 'functions/workers/dispatch-webhooks.ts',
    trigger: { kind: 'stream', filter: { eventNames: ['INSERT'], pkPrefix: 'EVENT#' } },
    sendsTo: ['webhookDeliveries'],
    table: 'read-write',
  },
  sendWebhooks: {
    entry: 'functions/workers/send-webhooks.ts',
    trigger: { kind: 'queue', queue: 'webhookDeliveries' },
    sendsTo: [],
    table: 'read-write',
    needs: ['secrets', 'outboundHttp'],
  },
  planSessionExpiry: {
    entry: 'functions/workers/plan-session-expiry.ts',
    trigger: { kind: 'stream', filter: { eventNames: ['INSERT', 'MODIFY'], pkPrefix: 'SESSION#' } },
    sendsTo: ['sessionExpiry'],
    table: 'none',
    needs: ['schedules'],
  },
  handOverSessionExpiry: {
    entry: 'functions/workers/hand-over-session-expiry.ts',
    trigger: { kind: 'schedule' },
    sendsTo: ['sessionExpiry'],
    table: 'none',
  },
  expireSessions: {
    entry: 'functions/workers/expire-sessions.ts',
    trigger: { kind: 'queue', queue: 'sessionExpiry' },
    sendsTo: ['sessionExpiry'],
    table: 'read-write',
    needs: ['secrets', 'gateways'],
  },
  notifyCardVerifications: {
    entry: 'functions/workers/notify-card-verifications.ts',
    trigger: { kind: 'daily', hourUtc: 9 },
    sendsTo: [],
    table: 'read-write',
  },
} as const satisfies Record<string, WorkerDefinition>;
export type WorkerId = keyof typeof workers;
export const workerIds = Object.keys(workers) as WorkerId[];
