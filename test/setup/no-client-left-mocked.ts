import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { KMSClient } from '@aws-sdk/client-kms';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll } from 'vitest';

/** The AWS clients the service uses. aws-sdk-client-mock's mockClient(C) stubs `send` on C.prototype itself. */
const CLIENTS = [CognitoIdentityProviderClient, DynamoDBClient, DynamoDBStreamsClient, KMSClient, SchedulerClient, SQSClient];

/**
 * Fails the test file that leaves an AWS client mocked. Files share one module cache per worker (vitest.config.ts), so
 * a stub left on a client's prototype would answer the next file's real calls (DynamoDB Local, moto) with undefined.
 * reset() keeps the stub: a file that mocks a client restores it in afterAll.
 */
afterAll(() => {
  const left = CLIENTS.filter((client) => Object.hasOwn(client.prototype, 'send')).map((client) => client.name);
  if (left.length > 0) throw new Error(`This file leaves ${left.join(', ')} mocked: call restore() on its mockClient in afterAll.`);
});
