import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queues, type QueueName } from '../../shared/workers.ts';
import { QUEUE_SUMMARIES } from './background-summaries.ts';

/** How long a dead letter is kept for inspection and manual replay: SQS's maximum. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * A queue of the worker manifest with its dead-letter queue (redrive after maxReceiveCount receives) and an alarm
 * as soon as anything lands there: a dead letter is a webhook that was never delivered or an expiry that never ran.
 */
export class WorkQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;

  constructor(scope: Construct, id: string, { name }: { name: QueueName }) {
    super(scope, id);
    const definition = queues[name];
    const deadLetters = addDeadLetters(this, `${QUEUE_SUMMARIES[name]}: messages reached the dead-letter queue`);
    this.deadLetterQueue = deadLetters.queue;
    this.deadLetterAlarm = deadLetters.alarm;
    this.queue = new Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
    });
  }
}

/**
 * A dead-letter queue in `scope` with its alarm (ids DeadLetters and DeadLetterAlarm, so existing queues keep their
 * logical ids): shared by the work queues and the daily workers' failed runs, so every dead letter pages on-call.
 */
export function addDeadLetters(scope: Construct, alarmDescription: string): { queue: Queue; alarm: Alarm } {
  const queue = new Queue(scope, 'DeadLetters', {
    retentionPeriod: DEAD_LETTER_RETENTION,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  const alarm = new Alarm(scope, 'DeadLetterAlarm', {
    alarmDescription,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  DEAD_LETTER_ALARMS.add(alarm);
  return { queue, alarm };
}

const DEAD_LETTER_ALARMS = new WeakSet<Alarm>();

/**
 * Whether a construct is the alarm of a dead-letter queue made by addDeadLetters, wherever: the stack pages on-call
 * from every one of them, so a dead-letter queue added anywhere cannot be left unwatched.
 */
export const isDeadLetterAlarm = (construct: unknown): construct is Alarm => DEAD_LETTER_ALARMS.has(construct as Alarm);
