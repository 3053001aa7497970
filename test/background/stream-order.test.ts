import { ListSchedulesCommand } from '@aws-sdk/client-scheduler';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build as buildPlanner } from '../../functions/workers/plan-session-expiry.ts';
import { createEventBridgeScheduler } from '../../shared/background/eventbridge-scheduler.ts';
import type { OneTimeScheduler } from '../../shared/background/one-time-scheduler.ts';
import type { AllDeps } from '../../shared/deps.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { startMotoScheduler, type MotoScheduler } from './moto-scheduler.ts';

let sequence = 1000;

/** A session's stream record as Lambda delivers it: its key, and the new image in DynamoDB's attribute format. */
function sessionRecord(eventName: 'INSERT' | 'MODIFY', reference: string, status: string, expiresAt: string): DynamoDBRecord {
  const keys = { pk: { S: `SESSION#${reference}` }, sk: { S: 'SESSION' } };
  sequence += 1;
  return {
    eventID: `event-${sequence}`,
    eventName,
    dynamodb: {
      Keys: keys,
      SequenceNumber: String(sequence),
      NewImage: { ...keys, type: { S: 'session' }, reference: { S: reference }, merchantId: { S: 'mer_order' }, status: { S: status }, expiresAt: { S: expiresAt } },
    },
  };
}

/** A new session and, in the same batch, its completion: the schedule must be created, then deleted. */
const createdThenCompleted = (reference: string, now: number) => {
  const expiresAt = new Date(now + 30 * 60_000).toISOString();
  return [sessionRecord('INSERT', reference, 'open', expiresAt), sessionRecord('MODIFY', reference, 'completed', expiresAt)];
};

describe('planSessionExpiry applies a session\'s changes in stream order', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  }, 120_000);
  afterAll(() => sandbox?.stop());

  const plannerWith = (scheduler: OneTimeScheduler) => buildPlanner({ ...sandbox.deps, scheduler } as AllDeps);

  it('never lets the delete of a completed session overtake the create of its insert, while sessions run side by side', async () => {
    // Creating is slow, deleting fast: handled in parallel, every delete would arrive first.
    const calls: string[] = [];
    const scheduler: OneTimeScheduler = {
      async schedule(name) {
        calls.push(`create-start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        calls.push(`create ${name}`);
      },
      async cancel(name) {
        calls.push(`delete ${name}`);
      },
    };
    const now = sandbox.clock.now();
    const records = [...createdThenCompleted('cs_a', now), ...createdThenCompleted('cs_b', now)];
    const result = await plannerWith(scheduler)({ Records: records });

    expect(result.batchItemFailures).toEqual([]);
    for (const reference of ['cs_a', 'cs_b']) {
      const mine = calls.filter((c) => c.endsWith(reference) && !c.startsWith('create-start'));
      expect(mine.map((c) => c.split(' ')[0])).toEqual(['create', 'delete']);
    }
    // Different sessions are not serialised behind each other: both creates started before either finished.
    expect(calls.slice(0, 2).every((c) => c.startsWith('create-start'))).toBe(true);
  });

  describe('against EventBridge Scheduler (moto)', () => {
    let moto: MotoScheduler;
    beforeAll(async () => {
      moto = await startMotoScheduler();
    }, 120_000);
    afterAll(() => moto?.stop());

    it('leaves no schedule behind for sessions created and completed in one batch', async () => {
      const groupName = await moto.newGroup();
      const scheduler = createEventBridgeScheduler(moto.client, {
        groupName,
        targetArn: 'arn:aws:lambda:eu-west-1:123456789012:function:handOver',
        roleArn: 'arn:aws:iam::123456789012:role/scheduler',
        deadLetterArn: 'arn:aws:sqs:eu-west-1:123456789012:schedule-dead-letters',
      });
      const now = sandbox.clock.now();
      const references = ['cs_m1', 'cs_m2', 'cs_m3', 'cs_m4'];
      const result = await plannerWith(scheduler)({ Records: references.flatMap((r) => createdThenCompleted(r, now)) });

      expect(result.batchItemFailures).toEqual([]);
      const { Schedules } = await moto.client.send(new ListSchedulesCommand({ GroupName: groupName }));
      expect(Schedules ?? []).toEqual([]);
    });
  });
});
