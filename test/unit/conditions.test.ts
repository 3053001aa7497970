import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  ConditionFailedError,
  TransactionConditionFailedError,
  TransactionConflictError,
  conditional,
  named,
} from '../../shared/store/conditions.ts';

const cancelled = (codes: string[]) =>
  new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('conditional', () => {
  it('turns a failed condition into ConditionFailedError carrying the old item', async () => {
    const error = new ConditionalCheckFailedException({ message: 'no', $metadata: {}, Item: { pk: { S: 'x' } } });
    const thrown = await conditional(() => Promise.reject(error)).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ConditionFailedError);
    expect((thrown as ConditionFailedError).existing).toEqual({ pk: { S: 'x' } });
  });

  it('names the transaction item whose condition failed, even beside a conflict', async () => {
    const thrown = await conditional(() => Promise.reject(cancelled(['None', 'TransactionConflict', 'ConditionalCheckFailed']))).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TransactionConditionFailedError);
    expect((thrown as TransactionConditionFailedError).index).toBe(2);
  });

  it('tells which named condition failed, wherever its item stands, and null for an unnamed one', async () => {
    // prepare: the same items in two orders
    const session = named('session', { Update: { Key: { pk: 'CS#1' } } });
    const refund = named('refund', { Put: { Item: { pk: 'REF#1' } } });
    const plain = { Put: { Item: { pk: 'OTHER' } } };
    const failAt = (i: number, items: object[]) =>
      conditional(() => Promise.reject(cancelled(items.map((_, j) => (j === i ? 'ConditionalCheckFailed' : 'None')))), items).catch((e: unknown) => e);
    // act / assess
    expect(await failAt(1, [session, refund, plain])).toMatchObject({ failed: 'refund', index: 1 });
    expect(await failAt(0, [refund, plain, session])).toMatchObject({ failed: 'refund', index: 0 });
    expect(await failAt(2, [refund, plain, session])).toMatchObject({ failed: 'session', index: 2 });
    expect(await failAt(1, [refund, plain, session])).toMatchObject({ failed: null, index: 1 });
    // Without the items, nothing can be named.
    expect(await conditional(() => Promise.reject(cancelled(['ConditionalCheckFailed']))).catch((e: unknown) => e)).toMatchObject({ failed: null, index: 0 });
  });

  it('keeps a named item what it was for the SDK: the name is no attribute of its own', () => {
    const item = { Put: { TableName: 't', Item: { pk: 'x' } } };
    expect(named('card', item)).toEqual(item);
    expect(JSON.stringify(named('card', item))).toBe(JSON.stringify(item));
  });

  it('turns a transaction conflict into a retryable TransactionConflictError, a kind of lost condition', async () => {
    const thrown = await conditional(() => Promise.reject(cancelled(['None', 'TransactionConflict']))).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(TransactionConflictError);
    expect(thrown).toBeInstanceOf(ConditionFailedError);
  });

  it('lets every other error through unchanged', async () => {
    const other = new Error('network down');
    await expect(conditional(() => Promise.reject(other))).rejects.toBe(other);
    await expect(conditional(() => Promise.reject(cancelled(['ValidationError'])))).rejects.toBeInstanceOf(TransactionCanceledException);
  });
});
