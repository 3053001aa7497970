import { ChangeMessageVisibilityCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DeleteScheduleCommand, GetScheduleCommand, ListSchedulesCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { LocalCloud } from './local-cloud.ts';
import { REGION, resolveValue, resourcesOfType } from './template.ts';

/** Does `value` match an event-filter pattern (Lambda's FilterCriteria, EventBridge pattern syntax: the subset CDK emits)? */
export function matchesPattern(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) {
    return pattern.some((rule) => {
      if (rule !== null && typeof rule === 'object') {
        const r = rule as Record<string, unknown>;
        if ('prefix' in r) return typeof value === 'string' && value.startsWith(String(r.prefix));
        if ('exists' in r) return (value !== undefined) === r.exists;
        if ('anything-but' in r) return !([] as unknown[]).concat(r['anything-but']).includes(value);
        throw new Error(`Filter rule ${JSON.stringify(rule)} is not supported by the harness`);
      }
      return rule === value;
    });
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (value === null || typeof value !== 'object') return false;
    return Object.entries(pattern).every(([key, sub]) => matchesPattern(sub, (value as Record<string, unknown>)[key]));
  }
  return pattern === value;
}

/** The User-Agent of calls the Lambda service and Scheduler make on the functions' behalf (not the functions' SDK). */
export const EVENT_SOURCE_AGENT = 'aws-service';

interface Mapping {
  logicalId: string;
  functionLogicalId: string;
  batchSize: number;
  filters: unknown[];
  bisect: boolean;
  maxRetries: number;
  reportItemFailures: boolean;
  onFailureArn?: string;
}

/** An invocation whose outcome the harness records, for the assertions (which function, what happened). */
export interface EventSourceInvocation {
  functionLogicalId: string;
  source: string;
  records: number;
  ok: boolean;
  error?: string;
}

/**
 * A retry wait the harness let pass at once on a queue given to `passRetryWaits`: the message a function left hidden
 * for `hiddenSeconds` was shown again at `passedAt` (epoch ms), after HIDDEN_FOR_REAL_MS of real time.
 */
export interface PassedWait {
  queueLogicalId: string;
  messageId: string;
  /** The receive that failed (ApproximateReceiveCount as the function got it). */
  receiveCount: number;
  hiddenSeconds: number;
  passedAt: number;
  /** Set when SQS refused to show the message again (it was deleted or moved meanwhile). */
  error?: string;
}

/**
 * How long a message stays hidden in real time before the harness lets its retry wait pass: were the function's
 * hiding missing, the poller (a receive a second) would hand the message out again within it.
 */
export const HIDDEN_FOR_REAL_MS = 2_000;

/**
 * Lambda's event sources over the local resources: the table's stream through each stream mapping's filters (in
 * order, with its batch size, bisection, retries and on-failure destination), each SQS mapping polling its queue
 * (delete on success, keep the items a batch reports as failed), and EventBridge Scheduler firing each one-time
 * schedule at its time with its target's input.
 */
export class EventSources {
  readonly invocations: EventSourceInvocation[] = [];
  readonly firedSchedules: { name: string; target: string; at: string }[] = [];
  readonly passedWaits: PassedWait[] = [];
  /** Schedules whose target could not be invoked, sent to their dead-letter queue. */
  readonly deadLetteredSchedules: { name: string; target: string; errorCode: string }[] = [];
  private readonly compressedQueues = new Set<string>();
  private running = true;
  private loops: Promise<void>[] = [];

  constructor(private readonly cloud: LocalCloud) {}

  start(): void {
    const { template, ids } = this.cloud;
    const streamMappings: Mapping[] = [];
    for (const [logicalId, { Properties: p }] of resourcesOfType(template, 'AWS::Lambda::EventSourceMapping')) {
      const source = String(resolveValue(p.EventSourceArn, ids, template));
      const fn = this.cloud.functionByArn(String(resolveValue(p.FunctionName, ids, template)));
      if (!fn) throw new Error(`Event source mapping ${logicalId} names no function of the template`);
      const mapping: Mapping = {
        logicalId,
        functionLogicalId: fn.logicalId,
        batchSize: p.BatchSize ?? 10,
        filters: (p.FilterCriteria?.Filters ?? []).map((f: { Pattern: string }) => JSON.parse(f.Pattern)),
        bisect: p.BisectBatchOnFunctionError ?? false,
        maxRetries: p.MaximumRetryAttempts ?? -1,
        reportItemFailures: (p.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
        onFailureArn: p.DestinationConfig?.OnFailure?.Destination ? String(resolveValue(p.DestinationConfig.OnFailure.Destination, ids, template)) : undefined,
      };
      // Lambda reads the source with the function's role: what its event source mapping needs, checked like its own calls.
      const role = fn.roleLogicalId;
      const actions = source === this.cloud.streamArn ? ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'] : ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];
      for (const action of actions) this.cloud.recorder.calls.push({ role, action, resources: [source], userAgent: EVENT_SOURCE_AGENT });
      if (mapping.onFailureArn) this.cloud.recorder.calls.push({ role, action: 'sqs:SendMessage', resources: [mapping.onFailureArn], userAgent: EVENT_SOURCE_AGENT });
      if (source === this.cloud.streamArn) streamMappings.push(mapping);
      else if (this.cloud.queueByArn(source)) this.loops.push(this.pollQueue(mapping, source));
      else throw new Error(`Event source mapping ${logicalId} reads ${source}, which the harness does not deploy`);
    }
    this.loops.push(this.readStream(streamMappings));
    this.loops.push(this.fireSchedules());
  }

  /**
   * Time passes at once for the retries of this queue (by logical id): a message a function reported failed, hidden
   * for its retry delay (its ChangeMessageVisibility, else the queue's visibility timeout), is shown again after
   * HIDDEN_FOR_REAL_MS with ChangeMessageVisibility 0 on the receipt handle the poller holds. Only the wait is
   * shortened: receive counts, the redrive after maxReceiveCount and the functions' clocks stay real.
   */
  passRetryWaits(queueLogicalId: string): void {
    this.cloud.queue(queueLogicalId);
    this.compressedQueues.add(queueLogicalId);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async readStream(mappings: Mapping[]): Promise<void> {
    // Per shard: where to read next, and the last record read (to resume after an expired iterator).
    const shards = new Map<string, { iterator?: string; last?: string }>();
    let described = 0;
    while (this.running) {
      if (Date.now() - described > 5000) {
        // Shards close and new ones open; a closed shard's children are found here.
        described = Date.now();
        const { StreamDescription } = (await this.streamsCall('DescribeStream', { StreamArn: this.cloud.streamArn })) as { StreamDescription: { Shards: { ShardId: string }[] } };
        for (const { ShardId } of StreamDescription.Shards) {
          if (shards.has(ShardId)) continue;
          const { ShardIterator } = (await this.streamsCall('GetShardIterator', { StreamArn: this.cloud.streamArn, ShardId, ShardIteratorType: 'TRIM_HORIZON' })) as { ShardIterator: string };
          shards.set(ShardId, { iterator: ShardIterator });
        }
      }
      let got = 0;
      for (const [shardId, shard] of shards) {
        if (!shard.iterator) continue;
        const page = (await this.streamsCall('GetRecords', { ShardIterator: shard.iterator, Limit: 1000 }).catch(async () => {
          // An iterator that expired while the machine was busy: resume after the last record read.
          const fresh = shard.last
            ? { StreamArn: this.cloud.streamArn, ShardId: shardId, ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: shard.last }
            : { StreamArn: this.cloud.streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' };
          const { ShardIterator } = (await this.streamsCall('GetShardIterator', fresh)) as { ShardIterator: string };
          return this.streamsCall('GetRecords', { ShardIterator, Limit: 1000 });
        })) as { Records: Record<string, any>[]; NextShardIterator?: string };
        shard.iterator = page.NextShardIterator;
        shard.last = page.Records.at(-1)?.dynamodb?.SequenceNumber ?? shard.last;
        got += page.Records.length;
        const records = page.Records.map((r) => ({ ...r, dynamodb: withEmptyMaps(r.dynamodb), eventSourceARN: this.cloud.streamArn }));
        // Each mapping sees the records its filters let through, in stream order, in batches of its size.
        for (const mapping of mappings) {
          const wanted = records.filter((r) => mapping.filters.length === 0 || mapping.filters.some((f) => matchesPattern(f, r)));
          for (let i = 0; i < wanted.length; i += mapping.batchSize) await this.deliverStreamBatch(mapping, wanted.slice(i, i + mapping.batchSize), 0);
        }
      }
      if (!got) await sleep(250);
    }
  }

  /**
   * A DynamoDB Streams call on the wire: the records reach the functions exactly in the JSON Lambda hands over
   * (attribute values as sent, binary as base64, times in epoch seconds), not as an SDK deserialized them.
   */
  private async streamsCall(operation: string, body: object): Promise<unknown> {
    const response = await fetch(this.cloud.dynamoEndpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDBStreams_20120810.${operation}`,
        authorization: `AWS4-HMAC-SHA256 Credential=harness/20260101/${REGION}/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`DynamoDB Streams ${operation}: ${response.status} ${text}`);
    return JSON.parse(text);
  }

  /**
   * One batch with Lambda's stream error handling: retry from the first reported failure, bisect on a function error.
   * Stopped, it delivers no more (a record that keeps failing would otherwise hold stop() until it is parked).
   */
  private async deliverStreamBatch(mapping: Mapping, batch: Record<string, any>[], attempt: number): Promise<void> {
    if (!batch.length || !this.running) return;
    const outcome = await this.cloud.invoke(mapping.functionLogicalId, { Records: batch });
    const failures = outcome.ok && mapping.reportItemFailures ? ((outcome.result as { batchItemFailures?: { itemIdentifier: string }[] } | null)?.batchItemFailures ?? []) : [];
    this.invocations.push({ functionLogicalId: mapping.functionLogicalId, source: 'stream', records: batch.length, ok: outcome.ok && !failures.length, error: outcome.ok ? undefined : outcome.errorMessage });
    if (outcome.ok && !failures.length) return;
    if (mapping.maxRetries >= 0 && attempt >= mapping.maxRetries) return this.sendToOnFailure(mapping, batch, outcome.ok ? 'batch item failures' : outcome.errorMessage);
    if (outcome.ok) {
      const first = batch.findIndex((r) => failures.some((f) => f.itemIdentifier === r.dynamodb.SequenceNumber));
      return this.deliverStreamBatch(mapping, batch.slice(Math.max(first, 0)), attempt + 1);
    }
    if (mapping.bisect && batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await this.deliverStreamBatch(mapping, batch.slice(0, half), attempt + 1);
      return this.deliverStreamBatch(mapping, batch.slice(half), attempt + 1);
    }
    return this.deliverStreamBatch(mapping, batch, attempt + 1);
  }

  private async sendToOnFailure(mapping: Mapping, batch: Record<string, any>[], reason: string): Promise<void> {
    if (!mapping.onFailureArn) return;
    const [, queue] = this.cloud.queueByArn(mapping.onFailureArn) ?? [];
    if (!queue) throw new Error(`On-failure destination ${mapping.onFailureArn} is not deployed`);
    const sqs = this.cloud.client(SQSClient);
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: JSON.stringify({ requestContext: { condition: 'RetryAttemptsExhausted', functionArn: mapping.functionLogicalId, reason }, DDBStreamBatchInfo: { batchSize: batch.length, startSequenceNumber: batch[0]?.dynamodb.SequenceNumber, endSequenceNumber: batch.at(-1)?.dynamodb.SequenceNumber, streamArn: this.cloud.streamArn } }) }));
    sqs.destroy();
  }

  private async pollQueue(mapping: Mapping, queueArn: string): Promise<void> {
    const [queueLogicalId, queue] = this.cloud.queueByArn(queueArn)!;
    const sqs = this.cloud.client(SQSClient);
    const passing = new Set<Promise<void>>();
    while (this.running) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: Math.min(mapping.batchSize, 10), WaitTimeSeconds: 1, MessageSystemAttributeNames: ['All'], MessageAttributeNames: ['All'] }),
      );
      if (!Messages.length) continue;
      const records = Messages.map((m) => ({
        messageId: m.MessageId,
        receiptHandle: m.ReceiptHandle,
        body: m.Body,
        attributes: m.Attributes ?? {},
        messageAttributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, { stringValue: v.StringValue, dataType: v.DataType, stringListValues: [], binaryListValues: [] }])),
        md5OfBody: m.MD5OfBody,
        eventSource: 'aws:sqs',
        eventSourceARN: queueArn,
        awsRegion: REGION,
      }));
      const outcome = await this.cloud.invoke(mapping.functionLogicalId, { Records: records });
      const failed = new Set(outcome.ok && mapping.reportItemFailures ? ((outcome.result as { batchItemFailures?: { itemIdentifier: string }[] } | null)?.batchItemFailures ?? []).map((f) => f.itemIdentifier) : []);
      this.invocations.push({ functionLogicalId: mapping.functionLogicalId, source: 'sqs', records: records.length, ok: outcome.ok && !failed.size, error: outcome.ok ? undefined : outcome.errorMessage });
      // A function error leaves the whole batch to reappear after its visibility timeout; success deletes all but the reported failures.
      const kept = outcome.ok ? records.filter((r) => failed.has(r.messageId!)) : records;
      if (this.compressedQueues.has(queueLogicalId)) {
        for (const record of kept) {
          const passed = this.passRetryWait(sqs, queueLogicalId, queue.url, record).finally(() => passing.delete(passed));
          passing.add(passed);
        }
      }
      if (!outcome.ok) continue;
      const done = records.filter((r) => !failed.has(r.messageId!));
      if (done.length) await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queue.url, Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })) }));
    }
    await Promise.all(passing);
    sqs.destroy();
  }

  /** One message's retry wait, passed (see passRetryWaits): how long the function hid it is what gets recorded. */
  private async passRetryWait(sqs: SQSClient, queueLogicalId: string, queueUrl: string, record: { messageId?: string; receiptHandle?: string; attributes: Record<string, string> }): Promise<void> {
    const set = this.cloud.recorder.calls.findLast((c) => c.visibility?.receiptHandle === record.receiptHandle)?.visibility;
    const hiddenSeconds = set?.seconds ?? Number(this.cloud.template.Resources[queueLogicalId]!.Properties?.VisibilityTimeout ?? 30);
    if (hiddenSeconds === 0) return;
    await sleep(HIDDEN_FOR_REAL_MS);
    const wait: PassedWait = { queueLogicalId, messageId: record.messageId!, receiveCount: Number(record.attributes.ApproximateReceiveCount), hiddenSeconds, passedAt: Date.now() };
    try {
      await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: 0 }));
    } catch (error) {
      wait.error = String(error);
    }
    this.passedWaits.push(wait);
  }

  /** EventBridge Scheduler: each one-time schedule (at(...)) is fired when its time comes, then deleted if it says so. */
  private async fireSchedules(): Promise<void> {
    const scheduler = this.cloud.client(SchedulerClient);
    while (this.running) {
      const { Schedules = [] } = await scheduler.send(new ListSchedulesCommand({}));
      for (const summary of Schedules) {
        // A schedule can be deleted between the listing and here (the planner deletes it when a session closes early).
        await this.fireIfDue(scheduler, summary.Name!, summary.GroupName!).catch((error: { name?: string }) => {
          if (error.name !== 'ResourceNotFoundException') throw error;
        });
      }
      await sleep(1000);
    }
    scheduler.destroy();
  }

  private async fireIfDue(scheduler: SchedulerClient, name: string, group: string): Promise<void> {
    const schedule = await scheduler.send(new GetScheduleCommand({ Name: name, GroupName: group }));
    const at = /^at\((.+)\)$/.exec(schedule.ScheduleExpression ?? '')?.[1];
    if (!at) return; // recurring (cron) schedules are the daily workers': the test fires those itself
    const zone = schedule.ScheduleExpressionTimezone ?? 'UTC';
    if (zone !== 'UTC') throw new Error(`Schedule ${name}: time zone ${zone} is not supported by the harness`);
    if (Date.parse(`${at}Z`) > Date.now()) return;
    await this.fire(schedule.Target!, name, at);
    if (schedule.ActionAfterCompletion === 'DELETE') await scheduler.send(new DeleteScheduleCommand({ Name: name, GroupName: group }));
  }

  /**
   * Invokes a schedule's target as Scheduler does (asynchronously, with the target's input), checking its role may.
   * A target that names no function is Lambda's ResourceNotFoundException: the input goes to the target's dead-letter
   * queue, sent with the schedule's role (without one the run fails: nothing may be lost silently).
   */
  async fire(target: ScheduleTarget, name: string, at: string): Promise<void> {
    const fn = this.cloud.functionByArn(target.Arn ?? '');
    const role = /:role\/(.+)$/.exec(target.RoleArn ?? '')?.[1] ?? 'no role';
    const input = (target.Input ?? '{}').replaceAll('<aws.scheduler.scheduled-time>', `${at}Z`).replaceAll('<aws.scheduler.schedule-arn>', name);
    if (!fn) return this.deadLetter(target, role, name, input, { code: 'ResourceNotFoundException', message: `Function not found: ${target.Arn}` });
    this.cloud.recorder.calls.push({ role, action: 'lambda:InvokeFunction', resources: [fn.arn], userAgent: EVENT_SOURCE_AGENT });
    this.firedSchedules.push({ name, target: fn.logicalId, at });
    const outcome = await this.cloud.invoke(fn.logicalId, JSON.parse(input));
    this.invocations.push({ functionLogicalId: fn.logicalId, source: 'scheduler', records: 1, ok: outcome.ok, error: outcome.ok ? undefined : outcome.errorMessage });
  }

  /**
   * Scheduler's dead-letter event: the input, with the error as message attributes. Scheduler sends it once the
   * target's RetryPolicy is spent; the harness sends it at once (the retries would fail the same way).
   */
  private async deadLetter(target: ScheduleTarget, role: string, name: string, input: string, error: { code: string; message: string }): Promise<void> {
    const arn = target.DeadLetterConfig?.Arn;
    if (!arn) throw new Error(`Schedule ${name} could not invoke ${target.Arn} (${error.code}) and has no dead-letter queue`);
    const [, queue] = this.cloud.queueByArn(arn) ?? [];
    if (!queue) throw new Error(`Schedule ${name}: its dead-letter queue ${arn} is not deployed`);
    this.cloud.recorder.calls.push({ role, action: 'sqs:SendMessage', resources: [arn], userAgent: EVENT_SOURCE_AGENT });
    const attribute = (value: string) => ({ DataType: 'String', StringValue: value });
    const sqs = this.cloud.client(SQSClient);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.url,
        MessageBody: input,
        MessageAttributes: { ERROR_CODE: attribute(error.code), ERROR_MESSAGE: attribute(error.message), TARGET_ARN: attribute(target.Arn ?? '') },
      }),
    );
    sqs.destroy();
    this.deadLetteredSchedules.push({ name, target: target.Arn ?? '', errorCode: error.code });
  }
}

interface ScheduleTarget {
  Arn?: string;
  Input?: string;
  RoleArn?: string;
  DeadLetterConfig?: { Arn?: string };
}

/**
 * DynamoDB Local's stream writes an empty map attribute as `{}` where DynamoDB's (and so Lambda's event) has
 * `{"M":{}}`; an SDK's unmarshall rejects the former. Restored here, the one place the harness corrects its stand-in.
 */
function withEmptyMaps(image: Record<string, any>): Record<string, any> {
  const fix = (value: any): any => {
    if (value === null || typeof value !== 'object') return value;
    if (!Array.isArray(value) && Object.keys(value).length === 0) return { M: {} };
    if (value.M) return { M: Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, fix(v)])) };
    if (value.L) return { L: value.L.map(fix) };
    return value;
  };
  const attributes = (item?: Record<string, unknown>) => (item ? Object.fromEntries(Object.entries(item).map(([k, v]) => [k, fix(v)])) : item);
  return { ...image, Keys: attributes(image.Keys), NewImage: attributes(image.NewImage), OldImage: attributes(image.OldImage) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
