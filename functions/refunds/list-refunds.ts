import { refundedMinor, toRefundResource } from '../../shared/domain/refund.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { refundsOf } from '../../shared/payments/refunds.ts';
import { TransactionReferenceParamsSchema } from '../../shared/schemas/transaction-schemas.ts';
import { findTransaction } from '../../shared/payments/transaction-access.ts';

/**
 * GET /v1/transactions/{reference}/refunds: oldest first. A refund left pending for a minute (no answer in time, or
 * held by the bank until it settles) is settled here from the bank's record first.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.listRefunds,
  { params: TransactionReferenceParamsSchema },
  async (req, deps) => {
    const stored = await findTransaction(deps, req.auth, req.params.reference);
    const { transaction, refunds } = await refundsOf(deps, req.auth.merchant, stored, req.now);
    return {
      statusCode: 200,
      body: { data: refunds.map(toRefundResource), transactionReference: transaction.reference, amountMinor: transaction.amountMinor, amountRefundedMinor: refundedMinor(transaction) },
    };
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment, userTokens: userTokensFromEnvironment },
);
