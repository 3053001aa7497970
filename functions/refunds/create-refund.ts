import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { createRefund, refundAnswer } from '../../shared/payments/refunds.ts';
import { CreateRefundBodySchema } from '../../shared/schemas/refund-schemas.ts';
import { TransactionReferenceParamsSchema } from '../../shared/schemas/transaction-schemas.ts';
import { findTransaction } from '../../shared/payments/transaction-access.ts';

/**
 * POST /v1/transactions/{reference}/refunds: refunds all that remains of an approved transaction, or `amountMinor` of
 * it. The amount is reserved on the transaction before the bank is called, so parallel refunds never exceed what was
 * approved; the bank's answer, the event and the stored answer are written together (shared/payments/refunds.ts).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.createRefund,
  {
    params: TransactionReferenceParamsSchema,
    body: CreateRefundBodySchema,
  },
  async (req, deps) => {
    const transaction = await findTransaction(deps, req.auth, req.params.reference);
    const refund = await createRefund(deps, req.auth.merchant, transaction, req.body, req.idempotency!, req.now);
    // What a dashboard user's audit entry keeps of it (the transaction is its target).
    const auditDetail = { refund: refund.reference, status: refund.status, amountMinor: refund.amountMinor, currency: refund.currency, method: refund.method, ...(refund.external ? { channel: refund.external.channel } : {}) };
    return { ...refundAnswer(refund), auditDetail };
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment, userTokens: userTokensFromEnvironment },
);
