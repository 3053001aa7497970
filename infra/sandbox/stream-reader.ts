import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Clock } from '../../shared/clock.ts';
import { keys } from '../../shared/store/keys.ts';

/**
 * How often a poll lists the stream's shards (one DescribeStream) to find new ones; a shard that closes lists them
 * at once. Listing on every poll would double the cost of the fast polls the runner makes.
 */
const SHARD_LIST_MS = 1000;
/** Records one GetRecords returns at most, as in AWS. */
const READ_LIMIT = 1000;

/**
 * Reads the table's stream on DynamoDB Local the way Lambda's event source mapping does in AWS: every shard, in
 * order, new shards from their start, resuming after a restart where the last run stopped. Checkpoints are items
 * in the table (like the scheduler's schedules, they live and die with the data they point into), one per reader
 * and shard, keyed by `readerId` so sandboxes sharing a table (the test run) never move each other's position.
 * A reader's very first start begins at LATEST: a fresh test sandbox does not replay the world.
 */
export class StreamReader {
  private readonly iterators = new Map<string, string | null>();
  /** Per shard, the last record polled and the last one saved. */
  private readonly polled = new Map<string, string>();
  private readonly committed = new Map<string, string>();
  /** Per shard, the records polled since the last save, in stream order: the checkpoint may stop between them. */
  private readonly sinceSaved = new Map<string, DynamoDBRecord[]>();
  /** Shards polled past a record a worker was given, since their last save. */
  private readonly unsaved = new Set<string>();
  private readonly shardOf = new WeakMap<DynamoDBRecord, string>();
  private streamArn = '';
  private shardsListedAt = 0;
  private shardClosed = false;

  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly tables: DynamoDBClient,
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly readerId: string,
    /** The sandbox clock: a record's time is told on it, as Lambda's and the stream's agree in AWS. */
    private readonly clock?: Clock,
  ) {}

  async start(): Promise<void> {
    const { Table } = await this.tables.send(new DescribeTableCommand({ TableName: this.tableName }));
    if (!Table?.LatestStreamArn) throw new Error(`Table ${this.tableName} has no stream; the sandbox needs one (see ensureTable).`);
    this.streamArn = Table.LatestStreamArn;
    const { started, shards } = await this.loadCheckpoints();
    for (const shardId of await this.shardIds()) {
      const after = shards.get(shardId);
      if (after) this.committed.set(shardId, after);
      // A shard without a checkpoint in a stream read before is one that opened since (rollover): read it all.
      this.iterators.set(shardId, after ? await this.iterator(shardId, 'AFTER_SEQUENCE_NUMBER', after) : await this.iterator(shardId, started ? 'TRIM_HORIZON' : 'LATEST'));
    }
    if (!started) await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...this.checkpointKey(), type: 'local_stream_checkpoint' } }));
  }

  /**
   * Saves, per shard that had a record handed to a worker, the last record polled before the first one `unfinished`
   * (in a batch still running, or waiting for its turn or its retry): those are read again after a restart (at least
   * once; the workers are idempotent). A shard polled past records no worker takes is left unsaved until one comes:
   * reading those again after a restart does nothing, and saving after each would write the table (and its stream)
   * once per poll.
   */
  async commit(handled: Iterable<DynamoDBRecord>, unfinished: Iterable<DynamoDBRecord>): Promise<void> {
    for (const record of handled) {
      const shardId = this.shardOf.get(record);
      if (shardId) this.unsaved.add(shardId);
    }
    const held = new Set(unfinished);
    for (const [shardId, polled] of this.sinceSaved) {
      const firstHeld = polled.findIndex((record) => held.has(record));
      const upTo = firstHeld === -1 ? polled.length : firstHeld;
      const sequenceNumber = polled[upTo - 1]?.dynamodb?.SequenceNumber;
      if (this.unsaved.has(shardId) && sequenceNumber) {
        await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...this.checkpointKey(shardId), type: 'local_stream_checkpoint', sequenceNumber } }));
        this.committed.set(shardId, sequenceNumber);
        if (firstHeld === -1) this.unsaved.delete(shardId);
      }
      // What lies before the first unfinished record is done: only the rest can hold the checkpoint back.
      this.sinceSaved.set(shardId, polled.slice(upTo));
    }
  }

  /**
   * The records written since the last poll, as Lambda would receive them; `more` when a shard had more than one
   * read returns, so the caller reads again at once.
   */
  async poll(): Promise<{ records: DynamoDBRecord[]; more: boolean }> {
    if (this.shardClosed || Date.now() - this.shardsListedAt >= SHARD_LIST_MS) await this.listShards();
    const out: DynamoDBRecord[] = [];
    let more = false;
    for (const [shardId, iterator] of this.iterators) {
      if (!iterator) continue;
      try {
        const page = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: READ_LIMIT }));
        if ((page.Records?.length ?? 0) === READ_LIMIT) more = true;
        this.iterators.set(shardId, page.NextShardIterator ?? null);
        // A closed shard has children (a rollover): they are read from the next poll on.
        if (!page.NextShardIterator) this.shardClosed = true;
        for (const record of page.Records ?? []) {
          const lambdaRecord = this.toLambdaRecord(record);
          this.shardOf.set(lambdaRecord, shardId);
          const sequenceNumber = record.dynamodb?.SequenceNumber;
          if (sequenceNumber) this.polled.set(shardId, sequenceNumber);
          const sinceSaved = this.sinceSaved.get(shardId) ?? [];
          sinceSaved.push(lambdaRecord);
          this.sinceSaved.set(shardId, sinceSaved);
          out.push(lambdaRecord);
        }
      } catch (error) {
        if (error instanceof TrimmedDataAccessException) {
          // The iterator points before the shard's oldest record. DynamoDB Local answers so for a table created while
          // another was (two test files' own tables at once); Lambda's poller then reads from the oldest record kept.
          this.iterators.set(shardId, await this.iterator(shardId, 'TRIM_HORIZON'));
          continue;
        }
        if (!(error instanceof ExpiredIteratorException)) throw error;
        // Unused for 15 minutes (a process paused in a debugger): go on after the last record read.
        const after = this.polled.get(shardId) ?? this.committed.get(shardId);
        this.iterators.set(shardId, after ? await this.iterator(shardId, 'AFTER_SEQUENCE_NUMBER', after) : await this.iterator(shardId, 'LATEST'));
      }
    }
    return { records: out, more };
  }

  /** New shards are read from their start. */
  private async listShards(): Promise<void> {
    this.shardsListedAt = Date.now();
    this.shardClosed = false;
    for (const shardId of await this.shardIds()) {
      if (!this.iterators.has(shardId)) this.iterators.set(shardId, await this.iterator(shardId, 'TRIM_HORIZON'));
    }
  }

  private async shardIds(): Promise<string[]> {
    const ids: string[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }));
      for (const shard of StreamDescription?.Shards ?? []) if (shard.ShardId) ids.push(shard.ShardId);
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return ids;
  }

  private async iterator(shardId: string, type: 'LATEST' | 'TRIM_HORIZON' | 'AFTER_SEQUENCE_NUMBER', sequenceNumber?: string): Promise<string | null> {
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequenceNumber }),
    );
    return ShardIterator ?? null;
  }

  private checkpointKey(shardId?: string) {
    return keys.localStreamCheckpoint(this.readerId, this.streamArn, shardId);
  }

  /** Whether this reader has read this stream before, and where it stopped in each shard. */
  private async loadCheckpoints(): Promise<{ started: boolean; shards: Map<string, string> }> {
    const shards = new Map<string, string>();
    let started = false;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': this.checkpointKey().pk }, ExclusiveStartKey: startKey }),
      );
      for (const item of page.Items ?? []) {
        started = true;
        const sk = item.sk as string;
        if (sk.startsWith('SHARD#') && typeof item.sequenceNumber === 'string') shards.set(sk.slice('SHARD#'.length), item.sequenceNumber);
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return { started, shards };
  }

  private toLambdaRecord(record: StreamRecord): DynamoDBRecord {
    const d = record.dynamodb;
    return {
      eventID: record.eventID,
      eventName: record.eventName,
      eventVersion: record.eventVersion,
      eventSource: 'aws:dynamodb',
      awsRegion: record.awsRegion,
      eventSourceARN: this.streamArn,
      dynamodb: {
        Keys: d?.Keys as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
        NewImage: d?.NewImage && (restoreEmptyMaps(d.NewImage) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage']),
        SequenceNumber: d?.SequenceNumber,
        SizeBytes: d?.SizeBytes,
        StreamViewType: d?.StreamViewType,
        // DynamoDB Local stamps real time; moved by the sandbox clock's offset, the workers see a record's age right.
        ApproximateCreationDateTime: d?.ApproximateCreationDateTime ? Math.floor((d.ApproximateCreationDateTime.getTime() + this.clockOffsetMs()) / 1000) : undefined,
      },
    };
  }

  private clockOffsetMs(): number {
    return this.clock ? this.clock.now() - Date.now() : 0;
  }
}

/**
 * The streams client reads an empty map attribute ({"M":{}}) back as a value with no type ({}), which unmarshall
 * refuses; Lambda's event source passes {"M":{}} through. Empty maps (metadata {}) are put back as such.
 */
function restoreEmptyMaps(image: Record<string, unknown>): Record<string, unknown> {
  const restore = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const attribute = value as Record<string, unknown>;
    if (Object.keys(attribute).length === 0) return { M: {} };
    if (attribute.M) return { M: restoreEmptyMaps(attribute.M as Record<string, unknown>) };
    if (Array.isArray(attribute.L)) return { L: attribute.L.map(restore) };
    return attribute;
  };
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, restore(value)]));
}
