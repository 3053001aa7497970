import type { AuthContext } from '../auth/authenticator.ts';
import type { PaymentDeps } from '../deps.ts';
import type { Transaction } from '../domain/transaction.ts';
import { requireOwned } from '../auth/ownership.ts';

/** A transaction of the caller's merchant and mode, or 404: another merchant's is indistinguishable from a missing one. */
export async function findTransaction(deps: PaymentDeps, auth: AuthContext, reference: string): Promise<Transaction> {
  return requireOwned(await deps.transactions.get(reference), auth, { resource: 'transaction', field: 'reference' });
}
