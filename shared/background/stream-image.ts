import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

/** The new image of a stream record as a plain object (the stream sends DynamoDB's attribute format). */
export function newImageOf(record: DynamoDBRecord): Record<string, unknown> | null {
  const image = record.dynamodb?.NewImage;
  return image ? unmarshall(image as Parameters<typeof unmarshall>[0]) : null;
}
