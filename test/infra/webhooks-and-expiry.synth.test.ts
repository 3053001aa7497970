import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { queues, STREAM_BATCHES_PER_SHARD } from '../../shared/workers.ts';
import { MAX_ATTEMPTS } from '../../shared/webhooks/retry-schedule.ts';
import { devStack } from './dev-stack.ts';
import { SYNTH_TIMEOUT_MS } from './stage-context.ts';

type Resource = { Type: string; Properties: Record<string, any> };

describe('webhook and expiry constructs', () => {
  let template: Template;
  let resources: Record<string, Resource>;
  beforeAll(() => {
    template = Template.fromStack(devStack());
    resources = template.toJSON().Resources as Record<string, Resource>;
  }, SYNTH_TIMEOUT_MS);
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const functionWithEntry = (description: string) => ofType('AWS::Lambda::Function').find(([, r]) => String(r.Properties.Description).startsWith(description));

  it('redrives deliveries to a dead-letter queue after the first attempt and 5 retries, and alarms on it', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: queues.webhookDeliveries.visibilityTimeoutSeconds,
      RedrivePolicy: { maxReceiveCount: MAX_ATTEMPTS, deadLetterTargetArn: Match.anyValue() },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: { maxReceiveCount: queues.sessionExpiry.maxReceiveCount, deadLetterTargetArn: Match.anyValue() } });
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, r]) => r.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(alarms).toHaveLength(4); // the two work queues, the per-session schedules and the daily card-verification run
    for (const [, alarm] of alarms) expect(alarm.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('feeds the dispatcher and the expiry planner from the stream with filters, and reports partial batch failures everywhere', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties);
    const streams = mappings.filter((m) => m.StartingPosition === 'TRIM_HORIZON');
    expect(streams).toHaveLength(2);
    const patterns = streams.map((m) => JSON.parse(m.FilterCriteria.Filters[0].Pattern));
    expect(patterns).toContainEqual({ eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: 'EVENT#' }] } } } });
    expect(patterns).toContainEqual({ eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'SESSION#' }] } } } });
    // And each worker's own parked records, when `dead-letters replay` marks one.
    const replays = streams.map((m) => JSON.parse(m.FilterCriteria.Filters[1].Pattern));
    for (const worker of ['dispatchWebhooks', 'planSessionExpiry']) {
      expect(replays).toContainEqual({ eventName: ['MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: `PARKED#${worker}#` }] } }, NewImage: { replayRequestedAt: { S: [{ exists: true }] } } } });
    }
    expect(mappings).toHaveLength(4);
    for (const mapping of mappings) expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('retries a failing stream batch a bounded number of times, then sends its position to an alarmed queue', () => {
    const streams = ofType('AWS::Lambda::EventSourceMapping').filter(([, r]) => r.Properties.StartingPosition === 'TRIM_HORIZON');
    const alarmedQueues = ofType('AWS::CloudWatch::Alarm').flatMap(([, a]) => (a.Properties.Dimensions as { Value: { 'Fn::GetAtt'?: [string] } }[] | undefined)?.map((d) => d.Value['Fn::GetAtt']?.[0]) ?? []);
    for (const [id, mapping] of streams) {
      expect(mapping.Properties, id).toMatchObject({ BisectBatchOnFunctionError: true, MaximumRecordAgeInSeconds: 12 * 3600 });
      // No count limit: retries must outlast the worker's PARK_AFTER_MS, after which it parks the record itself.
      expect((mapping.Properties as Record<string, unknown>).MaximumRetryAttempts ?? -1, id).toBe(-1);
      const onFailure = mapping.Properties.DestinationConfig.OnFailure.Destination as { 'Fn::GetAtt': [string, string] };
      expect(alarmedQueues, id).toContain(onFailure['Fn::GetAtt'][0]);
    }
  });

  it('handles up to STREAM_BATCHES_PER_SHARD batches of a shard at once, as the sandbox does', () => {
    const streams = ofType('AWS::Lambda::EventSourceMapping').filter(([, r]) => r.Properties.StartingPosition === 'TRIM_HORIZON');
    expect(streams).toHaveLength(2);
    for (const [id, mapping] of streams) expect(mapping.Properties.ParallelizationFactor, id).toBe(STREAM_BATCHES_PER_SHARD);
  });

  it('lets the planner, which writes no other item, park records: PARKED# items only', () => {
    const roleId = functionWithEntry('planSessionExpiry')![1].Properties.Role['Fn::GetAtt'][0] as string;
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, r]) => JSON.stringify(r.Properties.Roles).includes(roleId))
      .flatMap(([, r]) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Condition?: unknown }[]);
    const writes = statements.filter((s) => [s.Action].flat().includes('dynamodb:PutItem'));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PARKED#*'] } });
  });

  it('lets the scheduler role invoke only the hand-over, and the planner manage schedules of its group', () => {
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: { 'Fn::Join': ['', Match.arrayWith(['svc-payments-dev-expiry-'])] } });
    const planner = functionWithEntry('planSessionExpiry');
    expect(planner?.[1].Properties.Environment.Variables).toMatchObject({
      SCHEDULE_GROUP_NAME: expect.anything(),
      SCHEDULE_TARGET_ARN: expect.anything(),
      SCHEDULER_ROLE_ARN: expect.anything(),
      SCHEDULE_DEAD_LETTER_ARN: expect.anything(),
      SESSION_EXPIRY_QUEUE_URL: expect.anything(),
    });
    const schedulerRole = ofType('AWS::IAM::Role').find(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'));
    expect(schedulerRole).toBeDefined();
    const policies = ofType('AWS::IAM::Policy').filter(([, r]) => JSON.stringify(r.Properties.Roles).includes(schedulerRole![0]));
    const actions = policies.flatMap(([, r]) => r.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
    expect(actions.filter((a: string) => !a.startsWith('sqs:'))).toEqual(['lambda:InvokeFunction']);
  });

  it("gives the per-session schedules an alarmed dead-letter queue the scheduler role may send to, and pages on it", () => {
    const planner = functionWithEntry('planSessionExpiry')!;
    const deadLetters = planner[1].Properties.Environment.Variables.SCHEDULE_DEAD_LETTER_ARN as { 'Fn::GetAtt': [string, string] };
    const queueId = deadLetters['Fn::GetAtt'][0];
    expect(resources[queueId]!.Type).toBe('AWS::SQS::Queue');
    const schedulerRole = ofType('AWS::IAM::Role').find(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com') && JSON.stringify(r.Properties.Description).includes('session expiry'))!;
    const sends = ofType('AWS::IAM::Policy')
      .filter(([, r]) => JSON.stringify(r.Properties.Roles).includes(schedulerRole[0]))
      .flatMap(([, r]) => r.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    expect(sends.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [queueId, 'Arn'] }]);
    const [, alarm] = ofType('AWS::CloudWatch::Alarm').find(([, a]) => JSON.stringify(a.Properties.Dimensions).includes(queueId))!;
    expect(alarm.Properties.AlarmActions).toHaveLength(1);
    expect(alarm.Properties.Threshold).toBe(1);
  });

  it('gives table item access only to the workers that read or write items', () => {
    const dynamoActionsOf = (description: string) => {
      const roleId = functionWithEntry(description)![1].Properties.Role['Fn::GetAtt'][0] as string;
      return ofType('AWS::IAM::Policy')
        .filter(([, r]) => JSON.stringify(r.Properties.Roles).includes(roleId))
        .flatMap(([, r]) => r.Properties.PolicyDocument.Statement.flatMap((st: { Action: string | string[] }) => [st.Action].flat()))
        .filter((action: string) => ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'].includes(action));
    };
    expect(dynamoActionsOf('handOverSessionExpiry')).toEqual([]);
    expect(dynamoActionsOf('planSessionExpiry')).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem']); // PARKED# only (below)
    expect(dynamoActionsOf('sendWebhooks')).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem']));
  });

  it('gives the test and retry routes the delivery queue, and nothing else of it', () => {
    for (const description of ['POST /v1/webhooks/endpoints/{id}/test', 'POST /v1/webhooks/deliveries/{id}/retry']) {
      expect(functionWithEntry(description)?.[1].Properties.Environment.Variables).toHaveProperty(queues.webhookDeliveries.urlEnv);
    }
    expect(functionWithEntry('GET /v1/webhooks/deliveries ')?.[1].Properties.Environment.Variables).not.toHaveProperty(queues.webhookDeliveries.urlEnv);
  });
});
