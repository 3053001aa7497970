import { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient } from '@aws-sdk/client-scheduler';
import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { atExpression, createEventBridgeScheduler } from '../../shared/background/eventbridge-scheduler.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';
import { schedulerFromEnvironment } from '../../shared/background/scheduler-from-environment.ts';
import { createSqsQueue } from '../../shared/background/sqs-queue.ts';
import type { CoreDeps } from '../../shared/deps.ts';

describe('createSqsQueue', () => {
  const sqs = mockClient(SQSClient);
  beforeEach(() => sqs.reset());
  afterAll(() => sqs.restore());

  it('sends JSON with the delay clamped to SQS limits and changes visibility', async () => {
    const queue = createSqsQueue(new SQSClient({ region: 'us-east-1' }), 'https://sqs.example/q');
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    await queue.send({ deliveryId: 'wd_1' }, { delaySeconds: 1200.2 });
    await queue.changeVisibility('rh-1', 7680);
    expect(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input).toEqual({ QueueUrl: 'https://sqs.example/q', MessageBody: '{"deliveryId":"wd_1"}', DelaySeconds: 900 });
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]!.args[0].input).toEqual({ QueueUrl: 'https://sqs.example/q', ReceiptHandle: 'rh-1', VisibilityTimeout: 7680 });
  });

  it('is what queuesFromEnvironment builds on first send, with one client it loads then, to the URL of the queue', async () => {
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm1' });
    const env = { WEBHOOK_DELIVERIES_QUEUE_URL: 'https://sqs.example/wd', SESSION_EXPIRY_QUEUE_URL: 'https://sqs.example/se' };
    const { queues } = queuesFromEnvironment(env, {} as CoreDeps);
    await queues!.webhookDeliveries.send({ deliveryId: 'wd_1' });
    await queues!.sessionExpiry.send({ reference: 'cs_1' });
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input.QueueUrl)).toEqual(['https://sqs.example/wd', 'https://sqs.example/se']);
    expect(new Set(sqs.calls().map((call) => call.thisValue)).size).toBe(1);
  });

  it('names the missing URL variable on first use, not when built', async () => {
    const { queues } = queuesFromEnvironment({}, {} as CoreDeps);
    await expect(queues!.sessionExpiry.send({})).rejects.toThrow(/SESSION_EXPIRY_QUEUE_URL/);
  });
});

describe('createEventBridgeScheduler', () => {
  const scheduler = mockClient(SchedulerClient);
  beforeEach(() => scheduler.reset());
  afterAll(() => scheduler.restore());
  const make = () => createEventBridgeScheduler(new SchedulerClient({ region: 'us-east-1' }), { groupName: 'g', targetArn: 'arn:fn', roleArn: 'arn:role', deadLetterArn: 'arn:dlq' });

  it('creates a one-time, self-deleting schedule with no flexible window, retries and a dead-letter queue', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:s' });
    await make().schedule('session-expiry-cs_1', Date.parse('2026-01-01T10:03:30.750Z'), { merchantId: 'mer_1', reference: 'cs_1' });
    expect(scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input).toMatchObject({
      Name: 'session-expiry-cs_1',
      GroupName: 'g',
      ScheduleExpression: 'at(2026-01-01T10:03:30)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: 'arn:fn',
        RoleArn: 'arn:role',
        Input: '{"merchantId":"mer_1","reference":"cs_1"}',
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3600 },
        DeadLetterConfig: { Arn: 'arn:dlq' },
      },
    });
  });

  it('treats an existing schedule and a missing one on delete as done, and rethrows the rest', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    scheduler.on(DeleteScheduleCommand).rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    await expect(make().schedule('n', 0, { merchantId: 'm' })).resolves.toBeUndefined();
    await expect(make().cancel('n')).resolves.toBeUndefined();
    scheduler.on(DeleteScheduleCommand).rejects(new Error('throttled'));
    await expect(make().cancel('n')).rejects.toThrow('throttled');
  });

  it('is what schedulerFromEnvironment builds on first use, from the group, target and role variables', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:s' });
    const env = { SCHEDULE_GROUP_NAME: 'g', SCHEDULE_TARGET_ARN: 'arn:fn', SCHEDULER_ROLE_ARN: 'arn:role', SCHEDULE_DEAD_LETTER_ARN: 'arn:dlq' };
    await schedulerFromEnvironment(env, {} as CoreDeps).scheduler!.schedule('session-expiry-cs_1', 0, { merchantId: 'mer_1' });
    expect(scheduler.commandCalls(CreateScheduleCommand)[0]!.args[0].input).toMatchObject({
      Name: 'session-expiry-cs_1',
      GroupName: 'g',
      Target: { Arn: 'arn:fn', RoleArn: 'arn:role', DeadLetterConfig: { Arn: 'arn:dlq' } },
    });
  });

  it('writes at() without milliseconds or zone', () => {
    expect(atExpression(Date.parse('2026-03-04T05:06:07.999Z'))).toBe('at(2026-03-04T05:06:07)');
  });
});
