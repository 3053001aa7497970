import type { DynamoDBRecord } from 'aws-lambda';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionFailedError, conditional, itemExists } from '../store/conditions.ts';
import { keys } from '../store/keys.ts';
import { itemsOf, queryAll } from '../store/query-page.ts';
import type { WorkerId } from '../workers.ts';

/**
 * A stream record or queue message a worker could not handle after its retries, kept whole in the table with its
 * error until an operator replays it (`npm run admin -- dead-letters replay --id <id>`): nothing a worker fails on
 * is dropped. The worker parks it itself, so the record's content is kept even where AWS keeps only its position
 * (a stream's OnFailure destination); an alarm on the ParkedRecords metric pages on-call.
 */
export interface ParkedRecord {
  /** `<workerId>#<eventID or messageId>`. */
  id: string;
  workerId: WorkerId;
  source: 'stream' | 'queue';
  /** The record exactly as the worker received it (a Lambda DynamoDB stream record or SQS record). */
  record: unknown;
  error: { name: string; message: string };
  /** Tries so far, replays included. */
  attempts: number;
  parkedAt: string;
  /** The merchant the record belongs to, when it names one (stream images do). */
  merchantId?: string;
  /** The Lambda function that parked it (AWS): a replay is run by that function. */
  functionName?: string;
  /** The queue a parked message came from (AWS): a replay sends it there again. */
  queueUrl?: string;
  /** Set by `dead-letters replay`; the worker (or the sandbox) that claims it clears it. */
  replayRequestedAt?: string;
}

export const parkedRecordId = (workerId: WorkerId, recordId: string): string => `${workerId}#${recordId}`;

/** A stream record of a replay request: `dead-letters replay` marked one of `workerId`'s parked records. */
export function replayRequestOf(workerId: WorkerId, record: DynamoDBRecord): { id: string; requestedAt: string; inner: unknown; attempts: number } | null {
  const image = record.dynamodb?.NewImage;
  const requestedAt = image?.replayRequestedAt?.S;
  if (record.eventName !== 'MODIFY' || !(record.dynamodb?.Keys?.pk?.S ?? '').startsWith(keys.parkedRecordPrefix(workerId)) || !requestedAt) return null;
  return { id: image.id?.S ?? '', requestedAt, inner: JSON.parse(image.recordJson?.S ?? 'null'), attempts: Number(image.attempts?.N ?? 0) };
}

const keyOf = (id: string) => {
  const [workerId, ...rest] = id.split('#');
  return keys.parkedRecord(workerId!, rest.join('#'));
};

function fromItem(item: Record<string, unknown>): ParkedRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, type: _t, recordJson, ...fields } = item;
  return { ...(fields as Omit<ParkedRecord, 'record'>), record: JSON.parse(recordJson as string) };
}

export interface ParkedRecords {
  /** Parks (or parks again, after a replay that failed): the item is replaced, its replay request gone. */
  park(entry: ParkedRecord): Promise<void>;
  get(id: string): Promise<ParkedRecord | null>;
  /** All parked records, oldest first. */
  list(): Promise<ParkedRecord[]>;
  /** Marks it for replay; the change reaches the worker through the table's stream. Null when no such record. */
  requestReplay(id: string, at: string): Promise<ParkedRecord | null>;
  /** Takes the replay request seen in the stream; false when another consumer took it first or it was withdrawn. */
  claimReplay(id: string, requestedAt: string): Promise<boolean>;
  /** After a successful replay. */
  remove(id: string): Promise<void>;
}

/**
 * @example
 * const parked = createParkedRecords(deps.db, deps.config.tableName);
 * for (const entry of await parked.list()) console.log(entry.id, entry.error.message);
 */
export function createParkedRecords(db: DynamoDBDocumentClient, tableName: string): ParkedRecords {
  return {
    async park({ record, ...entry }) {
      const item = { ...keyOf(entry.id), ...keys.parkedRecords(entry.parkedAt, entry.id), type: 'parked_record', ...entry, recordJson: JSON.stringify(record) };
      delete (item as Partial<ParkedRecord>).replayRequestedAt;
      await db.send(new PutCommand({ TableName: tableName, Item: item }));
    },
    async get(id) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(id), ConsistentRead: true }));
      return Item ? fromItem(Item) : null;
    },
    async list() {
      const entries = await queryAll(db, tableName, { index: 'gsi1', partition: keys.parkedRecords('', '').gsi1pk, newestFirst: false });
      return (await itemsOf(db, tableName, entries)).map(fromItem).sort((a, b) => a.parkedAt.localeCompare(b.parkedAt));
    },
    async requestReplay(id, at) {
      try {
        const { Attributes } = await conditional(() =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keyOf(id),
              UpdateExpression: 'SET replayRequestedAt = :at',
              ConditionExpression: itemExists,
              ExpressionAttributeValues: { ':at': at },
              ReturnValues: 'ALL_NEW',
            }),
          ),
        );
        return Attributes ? fromItem(Attributes) : null;
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
    },
    async claimReplay(id, requestedAt) {
      try {
        await conditional(() =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keyOf(id),
              UpdateExpression: 'REMOVE replayRequestedAt',
              ConditionExpression: 'replayRequestedAt = :at',
              ExpressionAttributeValues: { ':at': requestedAt },
            }),
          ),
        );
        return true;
      } catch (error) {
        if (error instanceof ConditionFailedError) return false;
        throw error;
      }
    },
    async remove(id) {
      await db.send(new DeleteCommand({ TableName: tableName, Key: keyOf(id) }));
    },
  };
}
