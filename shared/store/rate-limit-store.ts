import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OperationClass, RateLimit } from '../domain/merchant.ts';
import { rateWindows } from '../domain/rate-limits.ts';
import { TransactionConditionFailedError, TransactionConflictError, conditional } from './conditions.ts';
import { keys } from './keys.ts';

export type ConsumeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Counts requests per merchant, class, UTC minute and UTC day. */
export interface RateLimitStore {
  consume(merchantId: string, operationClass: OperationClass, limit: RateLimit, now: number): Promise<ConsumeResult>;
}

const MAX_CONFLICT_RETRIES = 8;

export function createRateLimitStore(db: DynamoDBDocumentClient, tableName: string): RateLimitStore {
  const increment = (key: Record<string, string>, max: number, ttl: number) => ({
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
      // A rejected request is not counted: the transaction is cancelled whole.
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
      ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':max': max, ':ttl': ttl },
    },
  });

  return {
    async consume(merchantId, operationClass, limit, now) {
      const w = rateWindows(now);
      const command = new TransactWriteCommand({
        TransactItems: [
          increment(keys.rateWindow(merchantId, operationClass, w.minute), limit.perMinute, w.minuteExpiresAt),
          increment(keys.rateWindow(merchantId, operationClass, w.day), limit.perDay, w.dayExpiresAt),
        ],
      });
      for (let attempt = 0; ; attempt++) {
        try {
          await conditional(() => db.send(command));
          return { allowed: true };
        } catch (error) {
          if (error instanceof TransactionConditionFailedError) {
            const dayExhausted = isDayCancelled(error);
            return { allowed: false, retryAfterSeconds: dayExhausted ? w.dayResetsInSeconds : w.minuteResetsInSeconds };
          }
          // Two requests updating the same counters at once: DynamoDB cancels one; it simply tries again.
          if (error instanceof TransactionConflictError && attempt < MAX_CONFLICT_RETRIES) {
            await new Promise((r) => setTimeout(r, Math.random() * 10 * (attempt + 1)));
            continue;
          }
          throw error;
        }
      }
    },
  };
}

function isDayCancelled(error: TransactionConditionFailedError): boolean {
  const reasons = (error.cause as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons[1]?.Code === 'ConditionalCheckFailed';
}
