import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../shared/clock.ts';
import type { MessageQueue } from '../../shared/background/message-queue.ts';
import { keys } from '../../shared/store/keys.ts';
import { batchGetItems, queryAll } from '../../shared/store/query-page.ts';
import { webhookDeliveryItems } from '../../shared/store/webhook-delivery-store.ts';
import type { DeliveryMessage, WebhookDelivery } from '../../shared/webhooks/delivery.ts';
import type { LocalQueue } from './local-queue.ts';

/**
 * SQS keeps a delivery's retry message across anything; the sandbox's queue lives in memory. So every delivery
 * queued in the sandbox leaves a small item in the table, indexed by the sandbox that queued it (another sandbox on
 * the same table, in the test run, has its own), and recover() queues again those still pending or retrying, at
 * their nextRetryAt.
 */
export class OpenDeliveries {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
    /** The sandbox's stream reader id: the same across its restarts, its own among sandboxes sharing the table. */
    private readonly sandboxId: string,
    private readonly queue: LocalQueue,
  ) {}

  /**
   * The queue the workers send to: the in-memory one, each delivery noted in the table. The note is written while
   * the sender already works: an in-memory message does not outlive a crash anyway, and the send returns (so the
   * stream position moves on) only once the note is there.
   */
  tracked(): MessageQueue {
    return {
      send: async (body, options) => {
        await Promise.all([this.note((body as DeliveryMessage).deliveryId), this.queue.send(body, options)]);
      },
      changeVisibility: (handle, seconds) => this.queue.changeVisibility(handle, seconds),
    };
  }

  private async note(deliveryId: string): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.localQueuedDelivery(deliveryId), ...keys.localQueuedDeliveries(this.sandboxId, deliveryId), type: 'local_queued_delivery', deliveryId },
      }),
    );
  }

  /** Queues again this sandbox's unfinished deliveries; forgets the finished ones. Returns how many were queued. */
  async recover(): Promise<number> {
    const entries = await queryAll(this.db, this.tableName, { index: 'gsi1', partition: keys.localQueuedDeliveries(this.sandboxId, '').gsi1pk, newestFirst: false });
    const noted = entries.map((entry) => entry.gsi1sk as string);

    let queued = 0;
    const deliveries = new Map(
      (await batchGetItems(this.db, this.tableName, noted.map((id) => keys.webhookDelivery(id)))).map((item) => webhookDeliveryItems.fromItem(item)).map((delivery) => [delivery.id, delivery]),
    );
    for (const deliveryId of noted) {
      const delivery = deliveries.get(deliveryId);
      if (delivery && (delivery.state === 'pending' || delivery.state === 'retrying')) {
        const visibleAt = Math.max(this.clock.now(), delivery.nextRetryAt ? Date.parse(delivery.nextRetryAt) : 0);
        this.queue.restore({ deliveryId } satisfies DeliveryMessage, { visibleAt, receiveCount: delivery.automaticAttemptCount });
        queued += 1;
      } else {
        await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.localQueuedDelivery(deliveryId) }));
      }
    }
    return queued;
  }
}
