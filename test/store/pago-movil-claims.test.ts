import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../shared/ids.ts';
import { isTransactionConflict } from '../../shared/payments/session-contention.ts';
import { policies } from '../../shared/retry/policies.ts';
import { retry } from '../../shared/retry/retry.ts';
import { TransactionConditionFailedError, conditional } from '../../shared/store/conditions.ts';
import { createPagoMovilClaimStore, type ClaimedPayment, type ReferenceClaim } from '../../shared/store/pago-movil-claims.ts';
import type { TransactItem } from '../../shared/store/session-store.ts';
import { testConnection, testDb } from '../support/dynamo.ts';

const { tableName } = testConnection();
const db = testDb();
const claims = createPagoMovilClaimStore(db, tableName);
afterAll(() => db.destroy());

const merchantId = `mer_claims_${randomToken(10)}`;
/** A bank payment no other test of this file names. */
const freshPayment = (): ClaimedPayment => ({ merchantId, mode: 'test', bankCode: '0105', reference: `8${Math.floor(Math.random() * 1e10)}`.padEnd(11, '0') });
const claimOf = (payment: ClaimedPayment, n: number): ReferenceClaim => ({ ...payment, sessionReference: `cs_race${n}`, transactionReference: `txn_race${n}`, claimedAt: '2031-03-01T12:00:00.000Z' });

/** Writes items as an attempt's step does: a transaction conflict wrote nothing and is sent again; a lost condition is final. */
const commit = (items: TransactItem[]) =>
  retry(policies.settlementContention, () => conditional(() => db.send(new TransactWriteCommand({ TransactItems: items })), items), { isRetryable: isTransactionConflict });

const failedCondition = (error: unknown) => (error instanceof TransactionConditionFailedError ? error.failed : error);

describe('PagoMovilClaimStore on DynamoDB Local', () => {
  it('lets exactly one of eight sessions racing over one reference hold it; the others fail on the named claim', async () => {
    const payment = freshPayment();
    const contenders = Array.from({ length: 8 }, (_, n) => claimOf(payment, n));
    const outcomes = await Promise.allSettled(contenders.map((claim) => commit([claims.claimItem(claim)])));

    const winners = outcomes.flatMap((o, n) => (o.status === 'fulfilled' ? [n] : []));
    expect(winners).toHaveLength(1);
    const losers = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(losers.map((o) => failedCondition(o.reason))).toEqual(Array(7).fill('pagoMovilClaim'));
    expect(await claims.get(payment)).toEqual(contenders[winners[0]!]);
  });

  it('treats the reference with and without leading zeros as one payment, and another bank or mode as another', async () => {
    const payment = freshPayment();
    await commit([claims.claimItem(claimOf(payment, 1))]);

    const padded = { ...payment, reference: `00${payment.reference}` };
    await expect(commit([claims.claimItem(claimOf(padded, 2))]).catch(failedCondition)).resolves.toBe('pagoMovilClaim');
    expect((await claims.get(padded))?.sessionReference).toBe('cs_race1');

    await commit([claims.claimItem(claimOf({ ...payment, bankCode: '0134' }, 3))]);
    await commit([claims.claimItem(claimOf({ ...payment, mode: 'live' }, 4))]);
    expect((await claims.get({ ...payment, mode: 'live' }))?.sessionReference).toBe('cs_race4');
  });

  it('refuses a release by anyone but the holding attempt, and frees the reference when the holder releases it', async () => {
    const payment = freshPayment();
    const held = claimOf(payment, 1);
    await commit([claims.claimItem(held)]);

    const strangers = [
      { sessionReference: 'cs_race2', transactionReference: 'txn_race2' },
      // The same session's other attempt does not hold it either.
      { sessionReference: held.sessionReference, transactionReference: 'txn_race9' },
    ];
    for (const stranger of strangers) {
      await expect(commit([claims.releaseItem(payment, stranger)]).catch(failedCondition)).resolves.toBe('pagoMovilClaim');
    }
    expect(await claims.get(payment)).toEqual(held);

    await commit([claims.releaseItem(payment, held)]);
    expect(await claims.get(payment)).toBeNull();
    // Free again: the buyer who truly made that payment can claim it.
    await commit([claims.claimItem(claimOf(payment, 3))]);
    expect((await claims.get(payment))?.transactionReference).toBe('txn_race3');
  });

  it('answers null for a payment nobody claimed', async () => {
    expect(await claims.get(freshPayment())).toBeNull();
  });
});
