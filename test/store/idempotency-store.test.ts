import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/ids.ts';
import { ConditionFailedError, TransactionConditionFailedError, conditional } from '../../shared/store/conditions.ts';
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_RETENTION_MS,
  createIdempotencyStore,
  type Claim,
  type ClaimResult,
  type IdempotencyScope,
} from '../../shared/store/idempotency-store.ts';
import { keys } from '../../shared/store/keys.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { tableName } = testConnection();
const db = testDb();
const store = createIdempotencyStore(db, tableName);
afterAll(() => db.destroy());

// Far in the future, so no TTL sweep ever touches these records while the file runs.
const T0 = Date.UTC(2031, 2, 1, 12, 0, 0);
const merchantId = `mer_idem_${randomToken(10)}`;
const FP = 'fingerprint-a';
const OTHER_FP = 'fingerprint-b';
const RESPONSE = { statusCode: 201, body: { reference: 'cs_abc', nested: { amountMinor: 1050, tags: ['a', 'b'] }, prefill: null } };
/** A repeat gets the very text first answered: JSON.stringify of the body committed, keys in its order. */
const REPLAYED = { statusCode: 201, json: '{"reference":"cs_abc","nested":{"amountMinor":1050,"tags":["a","b"]},"prefill":null}' };

/** A key no other test of this file uses. */
const freshScope = (): IdempotencyScope => ({ merchantId, mode: 'test', operation: 'POST /v1/sessions', key: `key-${randomToken(12)}` });

const recordOf = async (scope: IdempotencyScope) =>
  (await db.send(new GetCommand({ TableName: tableName, Key: keys.idempotency(scope.merchantId, scope.mode, scope.operation, scope.key) }))).Item;

function claimOf(result: ClaimResult): Claim {
  if (result.kind !== 'claimed') throw new Error(`expected a claim, got ${result.kind}`);
  return result.claim;
}

/** A key claimed at T0 and completed with RESPONSE. */
async function completedKey(): Promise<IdempotencyScope> {
  const scope = freshScope();
  await store.complete(claimOf(await store.claim(scope, FP, T0)), RESPONSE);
  return scope;
}

describe('IdempotencyStore', () => {
  it('claims a key that was never used and records it as in progress', async () => {
    // prepare
    const scope = freshScope();
    // act
    const result = await store.claim(scope, FP, T0);
    // assess
    expect(result.kind).toBe('claimed');
    expect(await recordOf(scope)).toMatchObject({ state: 'in_progress', fingerprint: FP, claimId: claimOf(result).claimId });
  });

  it('replays the stored response of a completed key', async () => {
    // prepare
    const scope = await completedKey();
    // act
    const result = await store.claim(scope, FP, T0 + 60_000);
    // assess
    expect(result).toEqual({ kind: 'replay', response: REPLAYED });
  });

  it('replays a record stored before the body was kept as text (a DynamoDB map), as JSON of that map', async () => {
    const scope = freshScope();
    claimOf(await store.claim(scope, FP, T0));
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.idempotency(scope.merchantId, scope.mode, scope.operation, scope.key),
        UpdateExpression: 'SET #state = :completed, #response = :response',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
        ExpressionAttributeValues: { ':completed': 'completed', ':response': { statusCode: 201, body: { reference: 'cs_old' } } },
      }),
    );
    expect(await store.claim(scope, FP, T0 + 1_000)).toEqual({ kind: 'replay', response: { statusCode: 201, json: '{"reference":"cs_old"}' } });
  });

  it.each([
    ['still in progress', async () => {
      const scope = freshScope();
      await store.claim(scope, FP, T0);
      return scope;
    }],
    ['completed', completedKey],
  ])('answers mismatch when a key %s is reused with a different request', async (_, prepare) => {
    // prepare
    const scope = await prepare();
    // act
    const result = await store.claim(scope, OTHER_FP, T0 + 1_000);
    // assess
    expect(result).toEqual({ kind: 'mismatch' });
  });

  it('treats the same key on another operation, mode or merchant as a different key', async () => {
    // prepare
    const scope = await completedKey();
    const others: IdempotencyScope[] = [
      { ...scope, operation: 'POST /v1/sessions/{reference}/expire' },
      { ...scope, mode: 'live' },
      { ...scope, merchantId: `${merchantId}-other` },
    ];
    // act
    const results = await Promise.all(others.map((other) => store.claim(other, OTHER_FP, T0 + 1_000)));
    // assess
    expect(results.map((r) => r.kind)).toEqual(['claimed', 'claimed', 'claimed']);
  });

  it.each([1_000, IDEMPOTENCY_LOCK_MS - 1])('answers in_progress to the same request while the first is running (%i ms later)', async (elapsed) => {
    // prepare
    const scope = freshScope();
    await store.claim(scope, FP, T0);
    // act
    const result = await store.claim(scope, FP, T0 + elapsed);
    // assess
    expect(result).toEqual({ kind: 'in_progress' });
  });

  it('gives exactly one of 20 parallel claims of one key the claim', async () => {
    // prepare
    const scope = freshScope();
    // act
    const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(scope, FP, T0)));
    // assess
    const kinds = results.map((r) => r.kind);
    expect(kinds.filter((k) => k === 'claimed')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'in_progress')).toHaveLength(19);
  });

  it('frees the key on release, so a retry runs again', async () => {
    // prepare
    const scope = freshScope();
    const first = claimOf(await store.claim(scope, FP, T0));
    // act
    await store.release(first);
    const retry = await store.claim(scope, FP, T0 + 1_000);
    // assess
    expect(retry.kind).toBe('claimed');
  });

  it('does not release a completed key', async () => {
    // prepare
    const scope = freshScope();
    const claim = claimOf(await store.claim(scope, FP, T0));
    await store.complete(claim, RESPONSE);
    // act
    await store.release(claim);
    // assess
    expect(await store.claim(scope, FP, T0 + 1_000)).toEqual({ kind: 'replay', response: REPLAYED });
  });

  it.each([
    [IDEMPOTENCY_RETENTION_MS - 1, FP, 'replay'],
    [IDEMPOTENCY_RETENTION_MS - 1, OTHER_FP, 'mismatch'],
    [IDEMPOTENCY_RETENTION_MS, FP, 'claimed'],
    [IDEMPOTENCY_RETENTION_MS, OTHER_FP, 'claimed'],
  ])('keeps a completed key 24 h: %i ms after its claim, fingerprint %s gets %s', async (elapsed, fingerprint, kind) => {
    // prepare
    const scope = await completedKey();
    // act
    const result = await store.claim(scope, fingerprint, T0 + elapsed);
    // assess
    expect(result.kind).toBe(kind);
  });

  it.each([
    [FP, 'claimed'],
    [OTHER_FP, 'mismatch'],
  ])('lets an abandoned claim be taken over after the lock time only by the same request (%s gets %s)', async (fingerprint, kind) => {
    // prepare: the first claimant died without completing or releasing
    const scope = freshScope();
    await store.claim(scope, FP, T0);
    // act
    const result = await store.claim(scope, fingerprint, T0 + IDEMPOTENCY_LOCK_MS);
    // assess
    expect(result.kind).toBe(kind);
  });

  it('refuses the completion of a claim that was taken over, and leaves the new holder its key', async () => {
    // prepare: the first claimant stalls past the lock, the retry takes over
    const scope = freshScope();
    const stale = claimOf(await store.claim(scope, FP, T0));
    const current = claimOf(await store.claim(scope, FP, T0 + IDEMPOTENCY_LOCK_MS));
    // act
    const staleCompletion = store.complete(stale, { statusCode: 500, body: { stale: true } });
    await expect(staleCompletion).rejects.toBeInstanceOf(ConditionFailedError);
    await store.release(stale);
    // assess
    expect(await recordOf(scope)).toMatchObject({ state: 'in_progress', claimId: current.claimId });
  });

  describe('completionItem in a transaction', () => {
    const otherItemKey = () => ({ pk: `IDEMTEST#${merchantId}#${randomToken(10)}`, sk: 'ITEM' });

    it('commits the stored response together with the change it belongs to', async () => {
      // prepare
      const scope = freshScope();
      const claim = claimOf(await store.claim(scope, FP, T0));
      const change = otherItemKey();
      // act
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: tableName, Item: { ...change, value: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } },
            store.completionItem(claim, RESPONSE),
          ],
        }),
      );
      // assess
      expect((await db.send(new GetCommand({ TableName: tableName, Key: change }))).Item).toMatchObject({ value: 1 });
      expect(await store.claim(scope, FP, T0 + 1_000)).toEqual({ kind: 'replay', response: REPLAYED });
    });

    it('stores no response when the change it belongs to fails its condition', async () => {
      // prepare: the change is a create of an item that already exists
      const scope = freshScope();
      const claim = claimOf(await store.claim(scope, FP, T0));
      const change = otherItemKey();
      await db.send(new PutCommand({ TableName: tableName, Item: { ...change, value: 'original' } }));
      // act
      const write = conditional(() =>
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName, Item: { ...change, value: 'changed' }, ConditionExpression: 'attribute_not_exists(pk)' } },
              store.completionItem(claim, RESPONSE),
            ],
          }),
        ),
      );
      // assess
      await expect(write).rejects.toMatchObject({ name: 'TransactionConditionFailedError', index: 0 });
      await expect(write).rejects.toBeInstanceOf(TransactionConditionFailedError);
      const record = await recordOf(scope);
      expect(record).toMatchObject({ state: 'in_progress', claimId: claim.claimId });
      expect(record).not.toHaveProperty('response');
      expect((await db.send(new GetCommand({ TableName: tableName, Key: change }))).Item).toMatchObject({ value: 'original' });
    });
  });
});
