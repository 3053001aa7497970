import type { AuthContext } from '../../shared/auth/authenticator.ts';
import type { CoreDeps } from '../../shared/deps.ts';
import type { Transaction } from '../../shared/domain/transaction.ts';
import { NotFoundError } from '../../shared/errors.ts';

/** A transaction of the caller's merchant and mode, or 404: another merchant's is indistinguishable from a missing one. */
export async function findTransaction(deps: CoreDeps, auth: AuthContext, reference: string): Promise<Transaction> {
  const transaction = await deps.transactions.get(reference);
  if (!transaction || transaction.merchantId !== auth.merchant.id || transaction.mode !== auth.mode) throw new NotFoundError('transaction', 'reference');
  return transaction;
}
