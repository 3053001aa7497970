/**
 * Public AWS prices in us-east-1, USD, on demand, as published on each service's pricing page in 2025 (first
 * volume tier, free tier ignored). The one place the cost model reads prices from: update them here.
 *
 * | item                               | price               | page                                   |
 * |------------------------------------|---------------------|----------------------------------------|
 * | Lambda requests                    | $0.20 per million   | aws.amazon.com/lambda/pricing          |
 * | Lambda duration, arm64             | $0.0000133334/GB-s  | aws.amazon.com/lambda/pricing          |
 * | API Gateway REST API requests      | $3.50 per million   | aws.amazon.com/api-gateway/pricing     |
 * | DynamoDB on-demand write req. unit | $0.625 per million  | aws.amazon.com/dynamodb/pricing        |
 * | DynamoDB on-demand read req. unit  | $0.125 per million  | aws.amazon.com/dynamodb/pricing        |
 * | SQS standard queue requests        | $0.40 per million   | aws.amazon.com/sqs/pricing             |
 * | EventBridge Scheduler invocations  | $1.00 per million   | aws.amazon.com/eventbridge/pricing     |
 * | KMS API requests                   | $0.03 per 10,000    | aws.amazon.com/kms/pricing             |
 * | CloudFront HTTPS requests (N. Am.) | $0.0100 per 10,000  | aws.amazon.com/cloudfront/pricing      |
 *
 * DynamoDB bills a transactional read or write as two units per unit of item size; a write also costs one
 * unit per index it changes. Data transfer, storage, logs and X-Ray are left out: they do not scale with calls.
 *
 * What each counted call is billed as (bench/stand-in-counting.ts counts them, bench/cost-model.ts prices them):
 * - Lambda: one request per invocation, API functions and workers alike, and duration in GB-seconds at the
 *   function's memory (256 MB arm64 for all, infra/constructs/service-function.ts), rounded up to the millisecond.
 * - SQS: every request, including the ones the Lambda event source mapping makes for a worker (ReceiveMessage,
 *   DeleteMessageBatch): they are the account's SQS requests. The mapping's empty long polls while a queue is idle
 *   are a fixed cost per queue, not per session, and are left out. Up to 64 KB per request: our messages are small.
 * - EventBridge Scheduler: billed per schedule invocation; CreateSchedule and DeleteSchedule are not billed.
 * - KMS: Encrypt, Decrypt and GenerateMac (HMAC key) are all in the symmetric request price above.
 * - DynamoDB Streams: GetRecords made by a Lambda trigger is free, so the stream workers' polling costs nothing.
 */
export const PRICES_USD = {
  lambdaRequest: 0.2 / 1e6,
  lambdaArm64GbSecond: 0.0000133334,
  apiGatewayRestRequest: 3.5 / 1e6,
  dynamoWriteRequestUnit: 0.625 / 1e6,
  dynamoReadRequestUnit: 0.125 / 1e6,
  sqsRequest: 0.4 / 1e6,
  schedulerInvocation: 1.0 / 1e6,
  kmsRequest: 0.03 / 1e4,
  cloudFrontHttpsRequest: 0.01 / 1e4,
} as const;

export type PriceItem = keyof typeof PRICES_USD;
