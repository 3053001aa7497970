/**
 * A queue as the workers see it: SQS in AWS, an in-process queue with the same semantics in the sandbox.
 *
 * @example
 * await deps.queues.webhookDeliveries.send({ deliveryId }, { delaySeconds: 0 });
 */
export interface MessageQueue {
  /** `delaySeconds` (0 to 900, SQS's limit) hides the message until then. */
  send(body: unknown, options?: { delaySeconds?: number }): Promise<void>;
  /** Hides a received message for `seconds` from now: how a consumer schedules its retry. */
  changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
}

/** SQS refuses longer delays on a message. */
export const MAX_DELAY_SECONDS = 900;
