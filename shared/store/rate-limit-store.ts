import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { RateLimit } from '../domain/merchant.ts';
import { decideRate, rateWindows, type RateCounter, type RateDecision } from '../domain/rate-limits.ts';
import { ConditionFailedError, conditional } from './conditions.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './session-store.ts';

export type ConsumeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts requests per owner, counter, UTC minute and UTC day: a merchant and its operation class, or a checkout
 * session and its budget (CHECKOUT_SESSION_COUNTER).
 */
export interface RateLimitStore {
  consume(owner: string, counter: string, limit: RateLimit, now: number): Promise<ConsumeResult>;
  /** The counter's count for the UTC day of `now` (0 when none): read strongly, for a limit the caller judges. */
  dayCount(owner: string, counter: string, now: number): Promise<number>;
  /**
   * One more in the counter's UTC day, as an item of the caller's transaction: counted exactly when that commits.
   * With `below`, the item's condition is that the day's count is still under it, so a bound holds under races.
   */
  countItem(owner: string, counter: string, now: number, below?: number): TransactItem;
}

/**
 * A wrong guess of the minute, then a lost race to start it, then the minute's own form: three writes at most,
 * since each failed write returns the counter it failed on, which names the right form. More would take clocks
 * that disagree by whole minutes.
 */
const MAX_WRITES = 3;

/** The minute cache is a hint: emptied past this many owners, since every checkout session adds one. */
const MAX_MINUTES_REMEMBERED = 10_000;

const COUNTER_NAMES = { '#minute': 'minute', '#minuteCount': 'minuteCount', '#dayCount': 'dayCount' };

/**
 * One item per owner, counter and UTC day holds the day's count and the latest minute's count; each request is
 * one conditional UpdateItem on it (1 write unit), which a refused request leaves unchanged. The process remembers
 * the last minute it saw per merchant and class, so even a minute's first request is usually one round trip.
 */
export function createRateLimitStore(db: DynamoDBDocumentClient, tableName: string): RateLimitStore {
  const lastMinuteSeen = new Map<string, string>();

  const write = (key: Record<string, string>, decision: Exclude<RateDecision, { kind: 'refused' }>, limit: RateLimit, ttl: number) => {
    const values = { ':minute': decision.minute, ':one': 1, ':perDay': limit.perDay };
    const command =
      decision.kind === 'same_minute'
        ? new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: 'SET #minuteCount = #minuteCount + :one, #dayCount = #dayCount + :one',
            ConditionExpression: '#minute = :minute AND #minuteCount < :perMinute AND #dayCount < :perDay',
            ExpressionAttributeNames: COUNTER_NAMES,
            ExpressionAttributeValues: { ...values, ':perMinute': limit.perMinute },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          })
        : new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: 'SET #minute = :minute, #minuteCount = :one, #dayCount = if_not_exists(#dayCount, :zero) + :one, #ttl = :ttl',
            // Only forwards: a request late for its minute must not restart a counter a later minute already uses.
            ConditionExpression: '(attribute_not_exists(#minute) OR #minute < :minute) AND (attribute_not_exists(#dayCount) OR #dayCount < :perDay)',
            ExpressionAttributeNames: { ...COUNTER_NAMES, '#ttl': 'ttl' },
            ExpressionAttributeValues: { ...values, ':zero': 0, ':ttl': ttl },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          });
    return conditional(() => db.send(command));
  };

  return {
    async dayCount(owner, counter, now) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.rateWindow(owner, counter, rateWindows(now).day), ConsistentRead: true }));
      return (Item?.dayCount as number | undefined) ?? 0;
    },
    countItem(owner, counter, now, below) {
      const w = rateWindows(now);
      return {
        Update: {
          TableName: tableName,
          Key: keys.rateWindow(owner, counter, w.day),
          UpdateExpression: 'SET #dayCount = if_not_exists(#dayCount, :zero) + :one, #ttl = :ttl',
          ...(below === undefined ? {} : { ConditionExpression: 'attribute_not_exists(#dayCount) OR #dayCount < :below' }),
          ExpressionAttributeNames: { '#dayCount': 'dayCount', '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':ttl': w.dayExpiresAt, ...(below === undefined ? {} : { ':below': below }) },
        },
      };
    },
    async consume(owner, counter, limit, now) {
      const w = rateWindows(now);
      const key = keys.rateWindow(owner, counter, w.day);
      const seenKey = `${owner}#${counter}`;
      if (lastMinuteSeen.size >= MAX_MINUTES_REMEMBERED && !lastMinuteSeen.has(seenKey)) lastMinuteSeen.clear();
      let decision: RateDecision =
        lastMinuteSeen.get(seenKey) === w.minute ? { kind: 'same_minute', minute: w.minute } : { kind: 'new_minute', minute: w.minute };
      for (let writes = 0; writes < MAX_WRITES; writes++) {
        try {
          await write(key, decision, limit, w.dayExpiresAt);
          lastMinuteSeen.set(seenKey, decision.minute);
          return { allowed: true };
        } catch (error) {
          if (!(error instanceof ConditionFailedError)) throw error;
          // ALL_OLD comes back in DynamoDB's raw attribute format, even through the document client.
          const counter = error.existing && (unmarshall(error.existing as Parameters<typeof unmarshall>[0]) as Partial<RateCounter>);
          if (counter?.minute) lastMinuteSeen.set(seenKey, counter.minute);
          decision = decideRate(counter, w, limit);
          if (decision.kind === 'refused') return { allowed: false, retryAfterSeconds: decision.retryAfterSeconds };
        }
      }
      throw new Error(`The ${counter} rate counter of ${owner} kept changing under ${MAX_WRITES} writes`);
    },
  };
}
