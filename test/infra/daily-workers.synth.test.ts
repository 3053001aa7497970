import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ITEM_READ_ACTIONS, ITEM_WRITE_ACTIONS } from '../../infra/constructs/data-store.ts';
import type { WorkerFunction } from '../../infra/constructs/worker-function.ts';
import type { PaymentsStack } from '../../infra/stack.ts';
import { workerIds, workers, type WorkerId } from '../../shared/workers.ts';
import { devStack } from './dev-stack.ts';
import { SYNTH_TIMEOUT_MS, TEST_ENVIRONMENT } from './stage-context.ts';

type Resource = { Type: string; Properties: Record<string, any> };
interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

/** The manifest's daily workers and their UTC hours: what the stack must schedule. */
const DAILY = workerIds.flatMap((id) => {
  const { trigger } = workers[id];
  return trigger.kind === 'daily' ? [{ id, hourUtc: trigger.hourUtc }] : [];
});

describe('daily workers', () => {
  let stack: PaymentsStack;
  let resources: Record<string, Resource>;
  beforeAll(() => {
    stack = devStack();
    resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  }, SYNTH_TIMEOUT_MS);
  const idOf = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const arnOf = (construct: IConstruct) => ({ 'Fn::GetAtt': [idOf(construct), 'Arn'] });
  const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
  const workerOf = (id: WorkerId): WorkerFunction => {
    const worker = stack.dailyWorkers[id];
    expect(worker, id).toBeDefined();
    return worker!;
  };
  const scheduleOf = (id: WorkerId) => {
    const schedules = ofType('AWS::Scheduler::Schedule').filter(([, s]) => JSON.stringify(s.Properties.Target.Arn) === JSON.stringify(arnOf(workerOf(id).function)));
    expect(schedules, id).toHaveLength(1);
    return schedules[0]![1].Properties;
  };
  const statementsOfRole = (roleId: string): Statement[] =>
    ofType('AWS::IAM::Policy')
      .filter(([, p]) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
  /** The dead-letter queue the schedule names; the function's failed runs and the alarm must use the same. */
  const deadLettersOf = (id: WorkerId) => scheduleOf(id).Target.DeadLetterConfig.Arn as { 'Fn::GetAtt': [string, string] };

  it('gives every daily worker of the manifest one function and one schedule, and no other worker a schedule', () => {
    expect(DAILY.map((d) => d.id)).toContain('notifyCardVerifications');
    expect(Object.keys(stack.dailyWorkers).sort()).toEqual(DAILY.map((d) => d.id).sort());
    expect(ofType('AWS::Scheduler::Schedule')).toHaveLength(DAILY.length);
  });

  it.each(DAILY)('runs $id every day at $hourUtc:00 UTC sharp, with the scheduled time as its input', ({ id, hourUtc }) => {
    const schedule = scheduleOf(id);
    expect(schedule).toMatchObject({
      ScheduleExpression: `cron(0 ${hourUtc} * * ? *)`,
      ScheduleExpressionTimezone: 'Etc/UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
    });
    expect(schedule.Target.Arn).toEqual(arnOf(workerOf(id).function));
    expect(JSON.parse(schedule.Target.Input)).toEqual({ time: '<aws.scheduler.scheduled-time>' });
    expect(schedule.Target.RetryPolicy).toEqual({ MaximumRetryAttempts: expect.any(Number), MaximumEventAgeInSeconds: expect.any(Number) });
    expect(schedule.Target.RetryPolicy.MaximumRetryAttempts).toBeGreaterThan(0);
    expect(resources[deadLettersOf(id)['Fn::GetAtt'][0]]!.Type).toBe('AWS::SQS::Queue');
  });

  it.each(DAILY)("invokes $id through a role of its own that may invoke that function only, and dead-letter to its queue", ({ id }) => {
    const fn = workerOf(id).function;
    const roleId = scheduleOf(id).Target.RoleArn['Fn::GetAtt'][0] as string;
    const role = resources[roleId]!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'scheduler.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': TEST_ENVIRONMENT.account } } },
    ]);
    // Dedicated: no other schedule and no function uses this role.
    expect(JSON.stringify(resources).split(`"Fn::GetAtt":["${roleId}","Arn"]`)).toHaveLength(2);

    const statements = statementsOfRole(roleId);
    expect(statements.flatMap((s) => [s.Action].flat()).sort()).toEqual(['lambda:InvokeFunction', 'sqs:SendMessage']);
    const invoke = statements.find((s) => s.Action === 'lambda:InvokeFunction')!;
    // The function and its versions (ARN:*): nothing else.
    expect(invoke.Resource).toEqual([arnOf(fn), { 'Fn::Join': ['', [arnOf(fn), ':*']] }]);
    expect(invoke.Condition).toBeUndefined();
    expect(statements.find((s) => s.Action === 'sqs:SendMessage')!.Resource).toEqual(deadLettersOf(id));
  });

  it.each(DAILY)('grants $id the table access its manifest entry declares, and no key it does not need', ({ id }) => {
    const worker = workerOf(id);
    const statements = statementsOfRole(idOf(worker.role));
    const onTable = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    const tableArn = arnOf(stack.dataStore.table);
    if (workers[id].table === 'none') {
      expect(onTable).toEqual([]);
    } else {
      expect(onTable).toHaveLength(1);
      expect(onTable[0]!.Action).toEqual([...ITEM_READ_ACTIONS, ...ITEM_WRITE_ACTIONS]);
      expect(onTable[0]!.Resource).toEqual([tableArn, ...['gsi1', 'gsi2'].map((index) => ({ 'Fn::Join': ['', [tableArn, `/index/${index}`]] }))]);
      const onTableKey = statements.filter((s) => JSON.stringify(s.Resource) === JSON.stringify(arnOf(stack.dataStore.key)));
      expect(onTableKey.map((s) => s.Condition)).toEqual([{ StringEquals: { 'kms:ViaService': expect.anything() } }]);
    }
    expect(statements.flatMap((s) => [s.Action].flat()).filter((a) => a === 'dynamodb:Scan')).toEqual([]);
    if ((workers[id] as { needs?: readonly string[] }).needs === undefined) {
      const keyArns = [stack.keys.secrets, stack.keys.fingerprints].map((key) => JSON.stringify(arnOf(key)));
      expect(statements.filter((s) => keyArns.some((arn) => JSON.stringify(s.Resource).includes(arn))), id).toEqual([]);
      expect(Object.keys(resources[idOf(worker.function)]!.Properties.Environment.Variables).filter((name) => /KMS/.test(name))).toEqual([]);
    }
  });

  it("grants notifyCardVerifications what it does to the table: the gsi1 Query, the card's GetItem, the Puts of its transaction", () => {
    const statements = statementsOfRole(idOf(workerOf('notifyCardVerifications').role));
    const actions = statements.flatMap((s) => [s.Action].flat());
    // verificationsEndingBetween queries gsi1; cards.get reads the card; commit's TransactWriteItems puts the card and its event.
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem']));
    expect(actions).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey']));
  });

  it.each(DAILY)('retries a failed run of $id, dead-letters it and pages on-call, and logs to its own log group', ({ id }) => {
    const worker = workerOf(id);
    const deadLetters = deadLettersOf(id);
    const [[, invokeConfig]] = ofType('AWS::Lambda::EventInvokeConfig').filter(([, c]) => JSON.stringify(c.Properties.FunctionName) === JSON.stringify({ Ref: idOf(worker.function) })) as [[string, Resource]];
    expect(invokeConfig.Properties).toMatchObject({ MaximumRetryAttempts: 2, DestinationConfig: { OnFailure: { Destination: deadLetters } } });
    const sends = statementsOfRole(idOf(worker.role)).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    expect(sends.map((s) => s.Resource)).toEqual([deadLetters]);

    const alarm = resources[idOf(worker.deadLetterAlarm!)]!.Properties;
    expect(alarm).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1, Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetters['Fn::GetAtt'][0], 'QueueName'] } }] });
    const topic = { Ref: idOf(stack.monitoring.topic) };
    expect(alarm.AlarmActions).toEqual([topic]);
    expect(alarm.OKActions).toEqual([topic]);
    expect(resources[deadLetters['Fn::GetAtt'][0]]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });

    expect(resources[idOf(worker.function)]!.Properties.LoggingConfig.LogGroup).toEqual({ Ref: idOf(worker.logGroup) });
  });
});
