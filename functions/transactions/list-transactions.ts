import { ownedBy } from '../../shared/auth/ownership.ts';
import { toMerchantTransaction } from '../../shared/domain/transaction.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { ListTransactionsQuerySchema } from '../../shared/schemas/transaction-schemas.ts';

/** GET /v1/transactions: the key's mode only, newest first; a session of another merchant or mode lists nothing. */
export const { build, handler, schemas } = defineApiHandler(manifest.listTransactions, { query: ListTransactionsQuerySchema }, async (req, deps) => {
  const { page, pageSize, status, sessionReference, createdFrom, createdTo } = req.query;
  const { merchant, mode } = req.auth;
  let references: string[] | undefined;
  if (sessionReference) {
    const session = await deps.sessions.get(sessionReference);
    references = ownedBy(session, req.auth) ? (session.transactionReferences ?? []) : [];
  }
  const { items, total } = await deps.transactions.list(merchant.id, mode, { status, from: createdFrom, to: createdTo, references }, { page, pageSize });
  return { statusCode: 200, body: { data: items.map(toMerchantTransaction), total, page, pageSize } };
}, { userTokens: userTokensFromEnvironment });
