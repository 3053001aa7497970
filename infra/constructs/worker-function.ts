import { type CfnElement, Duration, Names, Stack, TimeZone } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { ContextAttribute, Schedule, ScheduleExpression, ScheduleTargetInput, TimeWindow } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { keys } from '../../shared/store/keys.ts';
import { queues as queueDefinitions, STREAM_BATCHES_PER_SHARD, workers, type QueueName, type WorkerDefinition, type WorkerId } from '../../shared/workers.ts';
import type { StageConfig } from '../stage-config.ts';
import type { DataStore } from './data-store.ts';
import { ServiceFunction, serviceEnvironment } from './service-function.ts';
import { WORKER_SUMMARIES } from './background-summaries.ts';
import { addDeadLetters } from './work-queue.ts';

/**
 * A stream batch the function reports failed is retried without a count limit (CDK's default, -1) for at most this
 * long, then only its position goes to the OnFailure queue (alarmed). The worker reports a failing record while it is
 * younger than PARK_AFTER_MS (an outage passes, nothing to replay by hand), then parks it with its content; so a
 * count limit (tried in seconds) could discard a record before its worker parks it. What reaches the OnFailure queue
 * is a record its worker could not even park (the table unreachable): 12 hours leave half the stream's 24-hour
 * retention to re-read it from its position (docs/runbook.md).
 */
const STREAM_MAX_RECORD_AGE = Duration.hours(12);

/** Lambda's asynchronous retries of a failed daily run (its maximum): the run is idempotent, so a retry is safe. */
const DAILY_RUN_RETRIES = 2;

export interface WorkerFunctionProps {
  config: StageConfig;
  dataStore: DataStore;
  /** Every queue of the manifest by name: the trigger's, and those the worker sends to. */
  queues: Partial<Record<QueueName, Queue>>;
  /** Where stream records that keep failing go, after the retries. */
  streamFailures?: Queue;
  environment?: Record<string, string>;
  timeout?: Duration;
}

/**
 * A background worker of the manifest (shared/workers.ts) as a Lambda function wired to its trigger, with the
 * table access and queue grants it needs. Batches report partial failures: one bad record never fails the others.
 */
export class WorkerFunction extends ServiceFunction {
  /** Daily workers only: their failed runs' dead-letter queue alarm, which the stack routes to on-call. */
  readonly deadLetterAlarm?: Alarm;

  /** `id` names the worker in the manifest. */
  constructor(scope: Construct, id: WorkerId, { config, dataStore, queues, streamFailures, environment = {}, timeout }: WorkerFunctionProps) {
    const worker: WorkerDefinition = workers[id];
    // A queue consumer also needs its own queue's URL: it delays a retry by changing the message's visibility.
    const queueNames = worker.trigger.kind === 'queue' ? [...worker.sendsTo, worker.trigger.queue] : worker.sendsTo;
    const queueUrls = Object.fromEntries(queueNames.map((name) => [queueDefinitions[name].urlEnv, requireQueue(queues, name).queueUrl]));
    super(scope, id, {
      config,
      entry: worker.entry,
      description: `${id}: ${WORKER_SUMMARIES[id]}`,
      environment: { ...serviceEnvironment(config, dataStore), ...queueUrls, ...environment },
      timeout,
      needs: worker.needs,
      readsTableStream: worker.trigger.kind === 'stream',
    });
    if (worker.table === 'read-write') dataStore.grantItemReadWrite(this.role);
    // A record worker parks what it cannot handle (shared/background/park-record.ts).
    else if (worker.trigger.kind === 'stream' || worker.trigger.kind === 'queue') dataStore.grantParkedRecordWrites(this.role);
    for (const name of worker.sendsTo) requireQueue(queues, name).grantSendMessages(this.role);

    const { trigger } = worker;
    if (trigger.kind === 'stream') {
      // The mapping by hand (with DynamoEventSource's id), not DynamoEventSource: its grant gives the table key
      // without kms:ViaService; DataStore.grantStreamRead keeps the key usable through DynamoDB only.
      this.function.addEventSourceMapping(`DynamoDBEventSource:${Names.nodeUniqueId(dataStore.table.node)}`, {
        eventSourceArn: dataStore.table.tableStreamArn!,
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        parallelizationFactor: STREAM_BATCHES_PER_SHARD,
        maxBatchingWindow: Duration.seconds(0),
        bisectBatchOnError: true,
        maxRecordAge: STREAM_MAX_RECORD_AGE,
        reportBatchItemFailures: true,
        ...(streamFailures ? { onFailure: new SqsDlq(streamFailures) } : {}),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.or(...trigger.filter.eventNames),
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(trigger.filter.pkPrefix) } } },
          }),
          // `dead-letters replay` marks one of this worker's parked records: the worker runs it again.
          FilterCriteria.filter({
            eventName: FilterRule.or('MODIFY'),
            dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(keys.parkedRecordPrefix(id)) } }, NewImage: { replayRequestedAt: { S: FilterRule.exists() } } },
          }),
        ],
      });
      dataStore.grantStreamRead(this.role);
    }
    if (trigger.kind === 'queue') {
      const queue = requireQueue(queues, trigger.queue);
      this.function.addEventSource(new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }));
      // A retry's delay is set through the message's visibility timeout by the worker itself.
      queue.grant(this.role, 'sqs:ChangeMessageVisibility');
    }
    if (trigger.kind === 'daily') {
      // Scheduler invokes Lambda asynchronously: its own retries and dead letters cover an invocation it could not
      // hand over (throttled, denied), Lambda's cover a run that failed; both land in the one alarmed queue.
      const deadLetters = addDeadLetters(this, `${id}: a daily run failed after its retries, or was never invoked`);
      this.deadLetterAlarm = deadLetters.alarm;
      NagSuppressions.addResourceSuppressions(deadLetters.queue, [
        { id: 'AwsSolutions-SQS3', reason: "It is the dead-letter queue of the schedule and of the function's failed runs; cdk-nag recognises only SQS redrives." },
      ]);
      this.function.configureAsyncInvoke({ retryAttempts: DAILY_RUN_RETRIES, onFailure: new SqsDestination(deadLetters.queue) });
      new Schedule(this, 'Schedule', {
        description: `${id}: daily at ${trigger.hourUtc}:00 UTC`,
        schedule: ScheduleExpression.cron({ minute: '0', hour: String(trigger.hourUtc), timeZone: TimeZone.ETC_UTC }),
        timeWindow: TimeWindow.off(),
        target: new LambdaInvoke(this.function, {
          role: schedulerInvokeRole(this, 'SchedulerRole', this, `EventBridge Scheduler invokes ${id} daily`),
          input: ScheduleTargetInput.fromObject({ time: ContextAttribute.scheduledTime }),
          retryAttempts: 3,
          // A run delivered within the hour still belongs to its day; later, the next day's run takes over.
          maxEventAge: Duration.hours(1),
          deadLetterQueue: deadLetters.queue,
        }),
      });
    }
  }
}

/**
 * A role EventBridge Scheduler (of this account only) assumes to invoke `target`, and no other function. Scheduler
 * needs the role's sqs:SendMessage too if the schedule has a dead-letter queue (the scheduler target adds it).
 */
export function schedulerInvokeRole(scope: Construct, id: string, target: ServiceFunction, description: string): Role {
  const role = new Role(scope, id, {
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } } }),
    description,
  });
  target.function.grantInvoke(role);
  NagSuppressions.addResourceSuppressions(role, [
    { id: 'AwsSolutions-IAM5', reason: "The target function's versions (ARN:*): the same one function only.", appliesTo: [`Resource::<${Stack.of(scope).getLogicalId(target.function.node.defaultChild as CfnElement)}.Arn>:*`] },
  ], true);
  return role;
}

function requireQueue(queues: Partial<Record<QueueName, Queue>>, name: QueueName): Queue {
  const queue = queues[name];
  if (!queue) throw new Error(`Queue ${name} is not part of this construct`);
  return queue;
}
