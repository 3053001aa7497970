import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  ConditionFailedError,
  TransactionConditionFailedError,
  TransactionConflictError,
  conditional,
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
