import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build as buildDispatcher } from '../../functions/workers/dispatch-webhooks.ts';
import type { MessageQueue } from '../../shared/background/message-queue.ts';
import type { AllDeps } from '../../shared/deps.ts';
import { deliveryIdFor, type DeliveryMessage } from '../../shared/webhooks/delivery.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

let sequence = 5000;

/** An outbox event's INSERT as the stream delivers it. */
function eventRecord(merchantId: string, id: string): DynamoDBRecord {
  const keys = { pk: `EVENT#${id}`, sk: 'EVENT' };
  sequence += 1;
  const envelope = { id, type: 'session.expired', createdAt: new Date().toISOString(), env: 'test', data: {} };
  return {
    eventID: `event-${sequence}`,
    eventName: 'INSERT',
    dynamodb: {
      Keys: marshall(keys) as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
      SequenceNumber: String(sequence),
      NewImage: marshall({ ...keys, type: 'event', merchantId, envelope }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
    },
  };
}

describe('the dispatcher reads a merchant’s endpoints once per batch', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  }, 120_000);
  afterAll(() => sandbox?.stop());

  it('shares a read among one batch’s records only: a batch read later sees an endpoint registered meanwhile', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const register = async (path: string) => {
      const res = await sandbox.request('POST', '/v1/webhooks/endpoints', { key: keys.secretTest, body: { url: `https://hooks.example.com/${path}` } });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const first = await register('first');

    // The first read is held after it answered, so it is still in progress when the second endpoint is registered.
    let reads = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const webhookEndpoints = {
      ...sandbox.deps.webhookEndpoints,
      list: async (...args: Parameters<AllDeps['webhookEndpoints']['list']>) => {
        reads += 1;
        const endpoints = await sandbox.deps.webhookEndpoints.list(...args);
        if (reads === 1) await held;
        return endpoints;
      },
    };
    const queued: string[] = [];
    const webhookDeliveries: MessageQueue = { send: async (body) => void queued.push((body as DeliveryMessage).deliveryId), changeVisibility: async () => {} };
    const dispatch = buildDispatcher({ ...sandbox.deps, webhookEndpoints, queues: { ...sandbox.deps.queues, webhookDeliveries } } as AllDeps);

    const earlier = dispatch({ Records: [eventRecord(merchant.id, 'evt_batch_1'), eventRecord(merchant.id, 'evt_batch_2')] });
    await expect.poll(() => reads, { timeout: 10_000 }).toBe(1);
    const second = await register('second');
    const later = await dispatch({ Records: [eventRecord(merchant.id, 'evt_batch_3')] });
    release();

    expect(later.batchItemFailures).toEqual([]);
    expect((await earlier).batchItemFailures).toEqual([]);
    expect(reads).toBe(2);
    expect(queued.sort()).toEqual(
      [deliveryIdFor('evt_batch_1', first), deliveryIdFor('evt_batch_2', first), deliveryIdFor('evt_batch_3', first), deliveryIdFor('evt_batch_3', second)].sort(),
    );
  });
});
