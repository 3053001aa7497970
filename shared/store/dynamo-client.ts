import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoConnection {
  tableName: string;
  /** Set for DynamoDB Local; absent in AWS. */
  endpoint?: string;
  region?: string;
}

/**
 * One document client per process (per Lambda container). DynamoDB Local accepts any credentials,
 * so fixed ones keep the sandbox independent of the developer's AWS profile.
 */
export function createDocumentClient(connection: DynamoConnection): DynamoDBDocumentClient {
  const config: DynamoDBClientConfig = { region: connection.region ?? process.env.AWS_REGION ?? 'us-east-1' };
  if (connection.endpoint) {
    config.endpoint = connection.endpoint;
    config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    config.maxAttempts = 3;
  }
  return DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
}
