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
  const client = new DynamoDBClient(config);
  // We never give the client a logger, yet its logger middleware still filters every input and output for one:
  // about a fifth of a list page's CPU in the benchmark's profile.
  client.middlewareStack.remove('loggerMiddleware');
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
