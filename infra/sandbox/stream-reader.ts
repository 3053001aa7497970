import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';

/**
 * Reads the table's stream on DynamoDB Local the way Lambda's event source mapping does in AWS: every shard, in
 * order, new shards from their start. It begins at the stream's end (LATEST) when the sandbox starts: what was
 * written before belongs to an earlier run, whose timers are recovered from the table instead.
 */
export class StreamReader {
  private readonly iterators = new Map<string, string | null>();
  private streamArn = '';

  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly tables: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async start(): Promise<void> {
    const { Table } = await this.tables.send(new DescribeTableCommand({ TableName: this.tableName }));
    if (!Table?.LatestStreamArn) throw new Error(`Table ${this.tableName} has no stream; the sandbox needs one (see ensureTable).`);
    this.streamArn = Table.LatestStreamArn;
    for (const shardId of await this.shardIds()) this.iterators.set(shardId, await this.iterator(shardId, 'LATEST'));
  }

  /** The records written since the last poll, as Lambda would receive them. */
  async poll(): Promise<DynamoDBRecord[]> {
    for (const shardId of await this.shardIds()) {
      if (!this.iterators.has(shardId)) this.iterators.set(shardId, await this.iterator(shardId, 'TRIM_HORIZON'));
    }
    const out: DynamoDBRecord[] = [];
    for (const [shardId, iterator] of this.iterators) {
      if (!iterator) continue;
      try {
        const page = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        this.iterators.set(shardId, page.NextShardIterator ?? null);
        for (const record of page.Records ?? []) out.push(this.toLambdaRecord(record));
      } catch (error) {
        if (!(error instanceof ExpiredIteratorException)) throw error;
        // Unused for 15 minutes (a process paused in a debugger): go on from now; expiries are in the table anyway.
        this.iterators.set(shardId, await this.iterator(shardId, 'LATEST'));
      }
    }
    return out;
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

  private async iterator(shardId: string, type: 'LATEST' | 'TRIM_HORIZON'): Promise<string | null> {
    const { ShardIterator } = await this.streams.send(new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: shardId, ShardIteratorType: type }));
    return ShardIterator ?? null;
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
        NewImage: d?.NewImage as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
        SequenceNumber: d?.SequenceNumber,
        SizeBytes: d?.SizeBytes,
        StreamViewType: d?.StreamViewType,
        ApproximateCreationDateTime: d?.ApproximateCreationDateTime ? Math.floor(d.ApproximateCreationDateTime.getTime() / 1000) : undefined,
      },
    };
  }
}
