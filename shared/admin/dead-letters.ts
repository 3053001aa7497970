import type { SQSRecord } from 'aws-lambda';
import type { ParkedRecord, ParkedRecords } from '../background/parked-records.ts';
import { AdminError } from './errors.ts';

/** How a replay ended: run again successfully (or, for a queue message, queued again), failed again, or not picked up. */
export type ReplayOutcome = { outcome: 'replayed' | 'queued'; record: ParkedRecord } | { outcome: 'failed-again'; record: ParkedRecord };

export interface ReplayOptions {
  /**
   * AWS only: sends a parked queue message back to the queue it came from (SQS). The sandbox's queues live in its
   * process, so there a replay request is picked up by the running sandbox instead.
   */
  sendToQueue?: (queueUrl: string, body: string) => Promise<void>;
  now: () => number;
  /** How long to wait for the worker to take the request. */
  waitMs?: number;
  pollMs?: number;
}

/**
 * Replays a parked record once its cause is fixed: a stream record is marked for replay, and its worker (the Lambda
 * function in AWS, the running sandbox locally) runs it again, through the table's stream; the record is removed
 * once it succeeds, or parked again with the new error. A queue message in AWS is sent back to its queue.
 *
 * @example
 * const { outcome } = await replayParkedRecord(parked, 'planSessionExpiry#4f1c...', { now: Date.now });
 */
export async function replayParkedRecord(parked: ParkedRecords, id: string, { sendToQueue, now, waitMs = 60_000, pollMs = 250 }: ReplayOptions): Promise<ReplayOutcome> {
  const record = await parked.get(id);
  if (!record) throw new AdminError(`No parked record ${id}: \`dead-letters list\` shows them.`);
  if (record.source === 'queue' && record.queueUrl && sendToQueue) {
    await sendToQueue(record.queueUrl, (record.record as SQSRecord).body);
    await parked.remove(id);
    return { outcome: 'queued', record };
  }
  const requestedAt = new Date(now()).toISOString();
  if (!(await parked.requestReplay(id, requestedAt))) throw new AdminError(`Parked record ${id} was replayed meanwhile.`);
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const current = await parked.get(id);
    if (!current) return { outcome: record.source === 'queue' ? 'queued' : 'replayed', record };
    // Parked again by the replay: a new parkedAt, the request gone.
    if (current.replayRequestedAt === undefined && current.parkedAt !== record.parkedAt) return { outcome: 'failed-again', record: current };
  }
  throw new AdminError(
    `Parked record ${id} is marked for replay, but no worker took it within ${Math.round(waitMs / 1000)} s. Locally, start the sandbox (\`npm start\`): it replays it when it reads the stream.`,
  );
}
