import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { OneTimeScheduler } from './one-time-scheduler.ts';

export interface EventBridgeSchedulerOptions {
  groupName: string;
  /** The schedule-triggered worker's Lambda. */
  targetArn: string;
  /** The role EventBridge Scheduler assumes to invoke it. */
  roleArn: string;
  /** The SQS queue (alarmed) that receives a hand-over Scheduler could not deliver after its retries. */
  deadLetterArn: string;
}

/** Scheduler's retries of a hand-over it could not deliver (throttled, the function failing), within the hour. */
export const HAND_OVER_RETRY_POLICY = { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3600 };

/** at(...) takes a UTC time without zone and without milliseconds. */
export const atExpression = (ms: number): string => `at(${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)})`;

/**
 * One-time EventBridge schedules that delete themselves once fired. No flexible window: the expiry needs the
 * earliest invocation Scheduler can give. The SDK module is imported on the first call, not at import, like the
 * client of schedulerFromEnvironment: it would cost every function that may schedule some start-up time.
 */
export function createEventBridgeScheduler(client: SchedulerClient, options: EventBridgeSchedulerOptions): OneTimeScheduler {
  return {
    async schedule(name, at, payload) {
      const { ConflictException, CreateScheduleCommand } = await import('@aws-sdk/client-scheduler');
      try {
        await client.send(
          new CreateScheduleCommand({
            Name: name,
            GroupName: options.groupName,
            ScheduleExpression: atExpression(at),
            ScheduleExpressionTimezone: 'UTC',
            FlexibleTimeWindow: { Mode: 'OFF' },
            ActionAfterCompletion: 'DELETE',
            Target: {
              Arn: options.targetArn,
              RoleArn: options.roleArn,
              Input: JSON.stringify(payload),
              RetryPolicy: HAND_OVER_RETRY_POLICY,
              // Never silently lost: after the retries the payload lands in an alarmed queue (docs/runbook.md).
              DeadLetterConfig: { Arn: options.deadLetterArn },
            },
          }),
        );
      } catch (error) {
        // A stream record processed twice creates the same schedule twice.
        if (!(error instanceof ConflictException)) throw error;
      }
    },
    async cancel(name) {
      const { DeleteScheduleCommand, ResourceNotFoundException } = await import('@aws-sdk/client-scheduler');
      try {
        await client.send(new DeleteScheduleCommand({ Name: name, GroupName: options.groupName }));
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
    },
  };
}
