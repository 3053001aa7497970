import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { addPaymentsStack } from '../../infra/stack.ts';
import { queues } from '../../shared/workers.ts';
import { MAX_ATTEMPTS } from '../../shared/webhooks/retry-schedule.ts';
import { stageContext } from './stage-context.ts';

type Resource = { Type: string; Properties: Record<string, any> };

describe('webhook and expiry constructs', () => {
  let template: Template;
  let resources: Record<string, Resource>;
  beforeAll(() => {
    // Wiring only: bundling the functions adds nothing to what is checked here.
    template = Template.fromStack(addPaymentsStack(new App({ context: stageContext({ stage: 'dev' }) })));
    resources = template.toJSON().Resources as Record<string, Resource>;
  });
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const functionWithEntry = (description: string) => ofType('AWS::Lambda::Function').find(([, r]) => String(r.Properties.Description).startsWith(description));

  it('redrives deliveries to a dead-letter queue after the first attempt and 5 retries, and alarms on it', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: queues.webhookDeliveries.visibilityTimeoutSeconds,
      RedrivePolicy: { maxReceiveCount: MAX_ATTEMPTS, deadLetterTargetArn: Match.anyValue() },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: { maxReceiveCount: queues.sessionExpiry.maxReceiveCount, deadLetterTargetArn: Match.anyValue() } });
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, r]) => r.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(alarms).toHaveLength(3); // the two work queues and the daily card-verification run
    for (const [, alarm] of alarms) expect(alarm.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('feeds the dispatcher and the expiry planner from the stream with filters, and reports partial batch failures everywhere', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, r]) => r.Properties);
    const streams = mappings.filter((m) => m.StartingPosition === 'TRIM_HORIZON');
    expect(streams).toHaveLength(2);
    const patterns = streams.map((m) => JSON.parse(m.FilterCriteria.Filters[0].Pattern));
    expect(patterns).toContainEqual({ eventName: ['INSERT'], dynamodb: { Keys: { pk: { S: [{ prefix: 'EVENT#' }] } } } });
    expect(patterns).toContainEqual({ eventName: ['INSERT', 'MODIFY'], dynamodb: { Keys: { pk: { S: [{ prefix: 'SESSION#' }] } } } });
    expect(mappings).toHaveLength(4);
    for (const mapping of mappings) expect(mapping.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('lets the scheduler role invoke only the hand-over, and the planner manage schedules of its group', () => {
    template.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: { 'Fn::Join': ['', Match.arrayWith(['svc-payments-dev-expiry-'])] } });
    const planner = functionWithEntry('planSessionExpiry');
    expect(planner?.[1].Properties.Environment.Variables).toMatchObject({
      SCHEDULE_GROUP_NAME: expect.anything(),
      SCHEDULE_TARGET_ARN: expect.anything(),
      SCHEDULER_ROLE_ARN: expect.anything(),
      SESSION_EXPIRY_QUEUE_URL: expect.anything(),
    });
    const schedulerRole = ofType('AWS::IAM::Role').find(([, r]) => JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'));
    expect(schedulerRole).toBeDefined();
    const policies = ofType('AWS::IAM::Policy').filter(([, r]) => JSON.stringify(r.Properties.Roles).includes(schedulerRole![0]));
    const actions = policies.flatMap(([, r]) => r.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
    expect(actions).toEqual(['lambda:InvokeFunction']);
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
    expect(dynamoActionsOf('planSessionExpiry')).toEqual([]);
    expect(dynamoActionsOf('sendWebhooks')).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem']));
  });

  it('gives the test and retry routes the delivery queue, and nothing else of it', () => {
    for (const description of ['POST /v1/webhooks/endpoints/{id}/test', 'POST /v1/webhooks/deliveries/{id}/retry']) {
      expect(functionWithEntry(description)?.[1].Properties.Environment.Variables).toHaveProperty(queues.webhookDeliveries.urlEnv);
    }
    expect(functionWithEntry('GET /v1/webhooks/deliveries ')?.[1].Properties.Environment.Variables).not.toHaveProperty(queues.webhookDeliveries.urlEnv);
  });
});
