import { Duration } from 'aws-cdk-lib';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { StageConfig } from '../stage-config.ts';
import type { DataStore } from './data-store.ts';
import { perStackCreation } from './physical-names.ts';
import { schedulerInvokeRole, WorkerFunction } from './worker-function.ts';
import { addDeadLetters, WorkQueue } from './work-queue.ts';

export interface SessionExpiryProps {
  config: StageConfig;
  dataStore: DataStore;
}

/**
 * Timed session expiry, at most a few seconds late (docs/webhooks-and-expiry.md): a new session (from the stream)
 * gets a one-time schedule SCHEDULE_LEAD_SECONDS before expiresAt; the schedule's hand-over queues the expiry
 * delayed to the exact second; the expiry worker closes the session and writes session.expired.
 */
export class SessionExpiry extends Construct {
  readonly expiries: WorkQueue;
  readonly scheduleGroup: ScheduleGroup;
  readonly schedulerRole: Role;
  /** Hand-overs the per-session schedules could not deliver after Scheduler's retries (alarmed). */
  readonly scheduleDeadLetters: Queue;
  readonly planner: WorkerFunction;
  readonly handOver: WorkerFunction;
  readonly expirer: WorkerFunction;

  constructor(scope: Construct, id: string, { config, dataStore }: SessionExpiryProps) {
    super(scope, id);
    this.expiries = new WorkQueue(this, 'Expiries', { name: 'sessionExpiry' });
    const queueMap = { sessionExpiry: this.expiries.queue };
    // Retained in production with the schedules in it: named anew per stack creation, so a retried deploy can create it.
    this.scheduleGroup = new ScheduleGroup(this, 'Schedules', {
      scheduleGroupName: `svc-payments-${config.stage}-expiry-${perStackCreation(this)}`,
      removalPolicy: config.removalPolicy,
    });

    this.handOver = new WorkerFunction(this, 'handOverSessionExpiry', { config, dataStore, queues: queueMap });
    this.schedulerRole = schedulerInvokeRole(this, 'SchedulerRole', this.handOver, 'EventBridge Scheduler invokes the session expiry hand-over');
    // As the daily jobs' schedules have: a hand-over Scheduler could not deliver lands here and pages on-call.
    this.scheduleDeadLetters = addDeadLetters(new Construct(this, 'ScheduleFailures'), 'Session expiry: a schedule could not hand over its session after its retries').queue;
    this.scheduleDeadLetters.grantSendMessages(this.schedulerRole);
    NagSuppressions.addResourceSuppressions(this.scheduleDeadLetters, [
      { id: 'AwsSolutions-SQS3', reason: "It is the dead-letter queue of the per-session schedules (their target's DeadLetterConfig); cdk-nag recognises only SQS redrives." },
    ]);

    this.planner = new WorkerFunction(this, 'planSessionExpiry', {
      config,
      dataStore,
      queues: queueMap,
      streamFailures: this.expiries.deadLetterQueue,
      environment: {
        SCHEDULE_GROUP_NAME: this.scheduleGroup.scheduleGroupName,
        SCHEDULE_TARGET_ARN: this.handOver.function.functionArn,
        SCHEDULER_ROLE_ARN: this.schedulerRole.roleArn,
        SCHEDULE_DEAD_LETTER_ARN: this.scheduleDeadLetters.queueArn,
      },
    });
    this.scheduleGroup.grantWriteSchedules(this.planner.role);
    this.scheduleGroup.grantDeleteSchedules(this.planner.role);
    this.planner.role.addToPrincipalPolicy(new PolicyStatement({ actions: ['iam:PassRole'], resources: [this.schedulerRole.roleArn] }));
    NagSuppressions.addResourceSuppressions(this.planner.role, [
      { id: 'AwsSolutions-IAM5', reason: "One schedule per session, named at run time, in this stage's own schedule group only.", appliesTo: [{ regex: `/^Resource::arn:<AWS::Partition>:scheduler:.+:schedule\\/svc-payments-${config.stage}-expiry-.+\\/\\*$/` }] },
    ], true);

    this.expirer = new WorkerFunction(this, 'expireSessions', { config, dataStore, queues: queueMap, timeout: Duration.seconds(20) });
  }
}
