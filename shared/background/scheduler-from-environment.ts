import { requireEnv } from '../config.ts';
import type { PartsFactory } from '../deps.ts';
import { onFirstUse } from './background-ports.ts';
import { createEventBridgeScheduler } from './eventbridge-scheduler.ts';

/**
 * EventBridge Scheduler from the environment (the schedule group, its target and role), created on first use. The
 * client is loaded then too, not at import: it would cost every function that may schedule some start-up time.
 */
export const schedulerFromEnvironment: PartsFactory<'scheduler'> = (env) => {
  const scheduler = onFirstUse(async () =>
    createEventBridgeScheduler(new (await import('@aws-sdk/client-scheduler')).SchedulerClient({}), {
      groupName: requireEnv('SCHEDULE_GROUP_NAME', env),
      targetArn: requireEnv('SCHEDULE_TARGET_ARN', env),
      roleArn: requireEnv('SCHEDULER_ROLE_ARN', env),
      deadLetterArn: requireEnv('SCHEDULE_DEAD_LETTER_ARN', env),
    }),
  );
  return { scheduler: { schedule: async (...a) => (await scheduler()).schedule(...a), cancel: async (name) => (await scheduler()).cancel(name) } };
};
