import type { SQSRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { MAX_DELAY_SECONDS, type MessageQueue } from '../../shared/background/message-queue.ts';
import type { QueueDefinition } from '../../shared/workers.ts';

interface LocalMessage {
  messageId: string;
  body: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  receiptHandle: string | null;
}

/**
 * The sandbox's SQS: a queue in memory with SQS's semantics on the sandbox clock. Delays and visibility timeouts
 * hide a message; every receive counts; a message received more than maxReceiveCount times goes to the dead-letter
 * list instead (redrive). Messages do not survive a restart; the delivery log in DynamoDB does, and the sandbox
 * puts its unfinished deliveries back at start (open-deliveries.ts).
 */
export class LocalQueue implements MessageQueue {
  private readonly messages = new Map<string, LocalMessage>();
  readonly deadLetters: { messageId: string; body: string; receiveCount: number }[] = [];
  private changed = () => {};

  constructor(
    readonly name: string,
    private readonly definition: QueueDefinition,
    private readonly clock: Clock,
  ) {}

  async send(body: unknown, { delaySeconds = 0 }: { delaySeconds?: number } = {}): Promise<void> {
    const now = this.clock.now();
    const messageId = randomUUID();
    const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
    this.messages.set(messageId, { messageId, body: JSON.stringify(body), sentAt: now, visibleAt: now + delay * 1000, receiveCount: 0, receiptHandle: null });
    this.changed();
  }

  /** Called whenever a message is added or hidden anew, as SQS would wake its Lambda poller: the consumer looks again. */
  watch(listener: () => void): void {
    this.changed = listener;
  }

  /** When the next message becomes visible (delay or visibility timeout ending), on the sandbox clock; none when empty. */
  nextVisibleAt(): number | undefined {
    let next: number | undefined;
    for (const message of this.messages.values()) if (next === undefined || message.visibleAt < next) next = message.visibleAt;
    return next;
  }

  /**
   * Puts back after a restart a message SQS would have kept: hidden until `visibleAt` (a visibility timeout may
   * pass the 900 s limit of a delay) and with the receives it had, so redrive still counts them.
   */
  restore(body: unknown, { visibleAt, receiveCount }: { visibleAt: number; receiveCount: number }): void {
    const messageId = randomUUID();
    this.messages.set(messageId, { messageId, body: JSON.stringify(body), sentAt: this.clock.now(), visibleAt, receiveCount, receiptHandle: null });
    this.changed();
  }

  async changeVisibility(receiptHandle: string, seconds: number): Promise<void> {
    const message = [...this.messages.values()].find((m) => m.receiptHandle === receiptHandle);
    if (!message) throw new Error(`ReceiptHandleIsInvalid: ${receiptHandle}`);
    message.visibleAt = this.clock.now() + Math.max(0, Math.ceil(seconds)) * 1000;
    this.changed();
  }

  /** Up to `max` visible messages as Lambda's SQS event records, hidden for the visibility timeout meanwhile. */
  receive(max = 10): SQSRecord[] {
    const now = this.clock.now();
    const visible = [...this.messages.values()].filter((m) => m.visibleAt <= now).sort((a, b) => a.visibleAt - b.visibleAt);
    const records: SQSRecord[] = [];
    for (const message of visible) {
      if (records.length >= max) break;
      if (message.receiveCount >= this.definition.maxReceiveCount) {
        this.messages.delete(message.messageId);
        this.deadLetters.push({ messageId: message.messageId, body: message.body, receiveCount: message.receiveCount });
        continue;
      }
      message.receiveCount += 1;
      message.receiptHandle = randomUUID();
      message.visibleAt = now + this.definition.visibilityTimeoutSeconds * 1000;
      records.push({
        messageId: message.messageId,
        receiptHandle: message.receiptHandle,
        body: message.body,
        attributes: {
          ApproximateReceiveCount: String(message.receiveCount),
          SentTimestamp: String(message.sentAt),
          SenderId: 'sandbox',
          ApproximateFirstReceiveTimestamp: String(now),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:local:000000000000:${this.name}`,
        awsRegion: 'local',
      });
    }
    return records;
  }

  /** A consumer deletes what it handled, as the Lambda event source mapping does with the batch's successes. */
  delete(receiptHandle: string): void {
    for (const message of this.messages.values()) if (message.receiptHandle === receiptHandle) this.messages.delete(message.messageId);
  }

  /** Messages waiting, visible or not. */
  get depth(): number {
    return this.messages.size;
  }
}
