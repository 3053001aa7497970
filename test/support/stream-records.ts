import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { testConnection } from './dynamo.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * Every record the run's table stream still holds, from the start of each shard, as JSON text: what a reader of
 * the stream (the stream-fed Lambdas, anyone with dynamodb:GetRecords) sees, new and old images included.
 */
export async function streamRecordTexts(): Promise<{ source: string; text: string }[]> {
  const { endpoint, tableName } = testConnection();
  const tables = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials });
  const streams = new DynamoDBStreamsClient({ endpoint, region: 'us-east-1', credentials });
  try {
    const { Table } = await tables.send(new DescribeTableCommand({ TableName: tableName }));
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${tableName} has no stream`);
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const texts: { source: string; text: string }[] = [];
    for (const shard of StreamDescription?.Shards ?? []) {
      let { ShardIterator: iterator } = await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }));
      // An open shard always answers a next iterator: stop at the first empty page, which is its current end.
      while (iterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const records = page.Records ?? [];
        for (const record of records) texts.push({ source: `stream record ${record.dynamodb?.SequenceNumber ?? '?'}`, text: JSON.stringify(record) });
        if (records.length === 0) break;
        iterator = page.NextShardIterator;
      }
    }
    return texts;
  } finally {
    tables.destroy();
    streams.destroy();
  }
}
