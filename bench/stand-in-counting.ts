import { StreamReader } from '../infra/sandbox/stream-reader.ts';
import type { Sandbox } from '../infra/sandbox/sandbox.ts';
import type { CachingSecretBox } from '../shared/crypto/opened-secret-cache.ts';
import type { CallCounter } from '../shared/observability/call-counter.ts';
import { workers, type QueueName, type WorkerDefinition } from '../shared/workers.ts';

/** service:command under which a worker's Lambda invocations are counted, e.g. Lambda:planSessionExpiry. */
export const LAMBDA = 'Lambda';

const workerIdsBy = (accepts: (trigger: WorkerDefinition['trigger']) => boolean) =>
  Object.entries(workers as Record<string, WorkerDefinition>)
    .filter(([, w]) => accepts(w.trigger))
    .map(([id]) => id);

/**
 * Counts the sandbox's in-process stand-ins as the AWS calls they stand for, in the scope of whoever calls them
 * (an API request, or the workers, unscoped), with CallCounter.standIn so their own DynamoDB storage (the local
 * scheduler's items) is not counted as DynamoDB:
 * - queue send: SQS SendMessage ("(delayed)" with a delay); changeVisibility: SQS ChangeMessageVisibility;
 * - a non-empty receive: the event source mapping's SQS ReceiveMessage, one Lambda invocation of the queue's worker,
 *   and one DeleteMessageBatch at the batch's first delete. Empty long polls are the mapping's fixed cost per
 *   queue (billed as SQS requests, not per session) and are left out;
 * - scheduler schedule / cancel: Scheduler CreateSchedule / DeleteSchedule; a schedule firing: one Scheduler
 *   Invocation and one Lambda invocation of the schedule's worker (its self-deletion is ActionAfterCompletion,
 *   no API call);
 * - secretBox encrypt / decrypt: KMS Encrypt / Decrypt (shared/crypto/kms-secret-box.ts, one call each);
 *   fingerprinter: KMS GenerateMac;
 * - a stream poll: one Lambda invocation of each stream worker that has matching records, as the runner invokes
 *   them (GetRecords by a Lambda trigger is free, so the poll itself is not counted, nor the reader's checkpoints).
 * The instances are patched in place: the workers were built over a copy of deps, which holds the same objects.
 */
export function countStandIns(sandbox: Sandbox, counter: CallCounter): void {
  const { deps } = sandbox;
  // The workers send through deps.queues (the sandbox may wrap its queues there, e.g. to note open deliveries in
  // the table: uncounted, as the stand-in's own storage); the runner receives from the queues themselves.
  for (const [name, port] of Object.entries(deps.queues) as [QueueName, (typeof deps.queues)[QueueName]][]) {
    const { send, changeVisibility } = port;
    port.send = (body, options) => counter.standIn('SQS', (options?.delaySeconds ?? 0) > 0 ? 'SendMessage (delayed)' : 'SendMessage', () => send.call(port, body, options));
    port.changeVisibility = (handle, seconds) => counter.standIn('SQS', 'ChangeMessageVisibility', () => changeVisibility.call(port, handle, seconds));
    const queue = sandbox.background.queues[name];
    const [worker] = workerIdsBy((t) => t.kind === 'queue' && t.queue === name);
    const { receive, delete: remove } = queue;
    let batchOpen = false;
    queue.receive = (max) => {
      const records = receive.call(queue, max);
      if (records.length > 0) {
        counter.record('SQS', 'ReceiveMessage');
        if (worker) counter.record(LAMBDA, worker);
        batchOpen = true;
      }
      return records;
    };
    queue.delete = (handle) => {
      if (batchOpen) counter.record('SQS', 'DeleteMessageBatch');
      batchOpen = false;
      remove.call(queue, handle);
    };
  }

  const scheduler = sandbox.background.scheduler;
  const [scheduleWorker] = workerIdsBy((t) => t.kind === 'schedule');
  const { schedule, cancel, fired } = scheduler;
  scheduler.schedule = (name, at, payload) => counter.standIn('Scheduler', 'CreateSchedule', () => schedule.call(scheduler, name, at, payload));
  scheduler.cancel = (name) => counter.standIn('Scheduler', 'DeleteSchedule', () => cancel.call(scheduler, name));
  scheduler.fired = (name) => {
    // The runner invokes the worker first, then marks the schedule fired: one firing, one invocation.
    if (scheduleWorker) counter.record(LAMBDA, scheduleWorker);
    return counter.standIn('Scheduler', 'Invocation', () => fired.call(scheduler, name));
  };

  const { fingerprinter } = deps;
  // Behind the opened-secret cache, where KMS is: a secret kept in memory costs no call.
  const secretBox = (deps.secretBox as Partial<CachingSecretBox>).uncached ?? deps.secretBox;
  const { encrypt, decrypt } = secretBox;
  secretBox.encrypt = (plaintext, context) => counter.standIn('KMS', 'Encrypt', () => encrypt.call(secretBox, plaintext, context));
  secretBox.decrypt = (ciphertext, context) => counter.standIn('KMS', 'Decrypt', () => decrypt.call(secretBox, ciphertext, context));
  const { fingerprint } = fingerprinter;
  fingerprinter.fingerprint = (value) => counter.standIn('KMS', 'GenerateMac', () => fingerprint.call(fingerprinter, value));

  // The stream reader is not reachable from the sandbox; the bench runs one, so its class is patched. Its
  // checkpoint writes are the sandbox's: Lambda's event source mapping keeps its stream position for free.
  const { commit } = StreamReader.prototype;
  StreamReader.prototype.commit = function (this: StreamReader, ...args: Parameters<typeof commit>) {
    return counter.uncounted(() => commit.apply(this, args));
  };
  const streamWorkers = Object.entries(workers as Record<string, WorkerDefinition>).flatMap(([id, w]) => (w.trigger.kind === 'stream' ? [{ id, filter: w.trigger.filter }] : []));
  const { poll } = StreamReader.prototype;
  StreamReader.prototype.poll = async function (this: StreamReader) {
    const polled = await poll.call(this);
    const { records } = polled;
    for (const { id, filter } of streamWorkers) {
      // The runner's own selection (infra/sandbox/background-runner.ts): event name, key prefix, an owner.
      const batch = records.filter(
        (r) => filter.eventNames.includes(r.eventName as 'INSERT') && (r.dynamodb?.Keys?.pk?.S ?? '').startsWith(filter.pkPrefix) && r.dynamodb?.NewImage?.merchantId?.S !== undefined,
      );
      if (batch.length > 0) counter.record(LAMBDA, id);
    }
    return polled;
  };
}
