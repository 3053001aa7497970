import { Duration } from 'aws-cdk-lib';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queues as queueDefinitions, type QueueName, type WorkerDefinition } from '../../shared/workers.ts';
import type { StageConfig } from '../stage-config.ts';
import type { DataStore } from './data-store.ts';
import { ServiceFunction, serviceEnvironment } from './service-function.ts';

export interface WorkerFunctionProps {
  config: StageConfig;
  dataStore: DataStore;
  worker: WorkerDefinition;
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
  constructor(scope: Construct, id: string, { config, dataStore, worker, queues, streamFailures, environment = {}, timeout }: WorkerFunctionProps) {
    const queueUrls = Object.fromEntries(
      worker.sendsTo.map((name) => [queueDefinitions[name].urlEnv, requireQueue(queues, name).queueUrl]),
    );
    super(scope, id, {
      config,
      entry: worker.entry,
      description: `${id}: ${worker.summary}`,
      environment: { ...serviceEnvironment(config, dataStore), ...queueUrls, ...environment },
      timeout,
      needs: worker.needs,
    });
    if (worker.table === 'read-write') dataStore.grantItemReadWrite(this.role);
    for (const name of worker.sendsTo) requireQueue(queues, name).grantSendMessages(this.role);

    const { trigger } = worker;
    if (trigger.kind === 'stream') {
      this.function.addEventSource(
        new DynamoEventSource(dataStore.table, {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: 100,
          maxBatchingWindow: Duration.seconds(0),
          bisectBatchOnError: true,
          retryAttempts: 10,
          reportBatchItemFailures: true,
          ...(streamFailures ? { onFailure: new SqsDlq(streamFailures) } : {}),
          filters: [
            FilterCriteria.filter({
              eventName: FilterRule.or(...trigger.filter.eventNames),
              dynamodb: { Keys: { pk: { S: FilterRule.beginsWith(trigger.filter.pkPrefix) } } },
            }),
          ],
        }),
      );
    }
    if (trigger.kind === 'queue') {
      const queue = requireQueue(queues, trigger.queue);
      this.function.addEventSource(new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }));
      // A retry's delay is set through the message's visibility timeout by the worker itself.
      queue.grant(this.role, 'sqs:ChangeMessageVisibility');
    }
  }
}

function requireQueue(queues: Partial<Record<QueueName, Queue>>, name: QueueName): Queue {
  const queue = queues[name];
  if (!queue) throw new Error(`Queue ${name} is not part of this construct`);
  return queue;
}
