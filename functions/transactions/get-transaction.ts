import { toTransactionDetail } from '../../shared/domain/transaction.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { TransactionDetailSchema, TransactionReferenceParamsSchema } from '../../shared/schemas/transaction-schemas.ts';

/** GET /v1/transactions/{reference}: with the technical detail and the trace. Another merchant's is a 404. */
export const { build, handler, schemas, parts } = defineApiHandler('getTransaction', { params: TransactionReferenceParamsSchema, responses: { success: { 200: TransactionDetailSchema }, errors: { 404: 'resource_missing: no such transaction in this merchant and mode.' } } }, async (req, deps) => {
  const transaction = await deps.transactions.get(req.params.reference);
  if (!transaction || transaction.merchantId !== req.auth.merchant.id || transaction.mode !== req.auth.mode) {
    throw new NotFoundError('transaction', 'reference');
  }
  return { statusCode: 200, body: toTransactionDetail(transaction) };
});
