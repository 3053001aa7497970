import { describe, expect, it } from 'vitest';
import { createSvcClient, SvcApiError } from '../../shared/client/index.ts';
import { sandboxWithReceiver } from '../support/sandbox-with-receiver.ts';
import { paidTransaction } from './support.ts';

describe('the typed client refunds', () => {
  const env = sandboxWithReceiver();

  it('creates and lists refunds; a refused refund throws SvcApiError with its code', async () => {
    const { sandbox } = env;
    const { keys } = await sandbox.newMerchant();
    const { transaction } = await paidTransaction(sandbox, keys.secretTest);
    const svc = createSvcClient({ baseUrl: sandbox.url, secretKey: keys.secretTest });

    const refund = await svc.refunds.create(transaction.reference, { amountMinor: 600, reason: 'duplicate' }, { idempotencyKey: 'refund-1' });
    const replay = await svc.refunds.create(transaction.reference, { amountMinor: 600, reason: 'duplicate' }, { idempotencyKey: 'refund-1' });
    const refused = await svc.refunds.create(transaction.reference, { amountMinor: 401 }, { idempotencyKey: 'refund-2' }).catch((error: unknown) => error);
    const list = await svc.refunds.list(transaction.reference);
    const detail = await svc.transactions.get(transaction.reference);

    expect(refund).toMatchObject({ transactionReference: transaction.reference, amountMinor: 600, status: 'succeeded', reason: 'duplicate' });
    expect(replay).toEqual(refund);
    expect(refused).toBeInstanceOf(SvcApiError);
    expect(refused).toMatchObject({ status: 400, code: 'refund_amount_exceeds_remaining' });
    expect(list).toEqual({ data: [refund], transactionReference: transaction.reference, amountMinor: 1000, amountRefundedMinor: 600 });
    expect(detail).toMatchObject({ status: 'approved', amountRefundedMinor: 600, refunds: [refund] });
  });
});
