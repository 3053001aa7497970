import type { AuthContext } from '../../shared/auth/authenticator.ts';
import type { Deps } from '../../shared/deps.ts';
import type { Transaction } from '../../shared/domain/transaction.ts';
import { requireOwned } from '../../shared/auth/ownership.ts';

/** A transaction of the caller's merchant and mode, or 404: another merchant's is indistinguishable from a missing one. */
export async function findTransaction(deps: Deps, auth: AuthContext, reference: string): Promise<Transaction> {
  return requireOwned(await deps.transactions.get(reference), auth, { resource: 'transaction', field: 'reference' });
}
