import { toTransactionDetail } from '../../shared/domain/transaction.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { requireOwned } from '../../shared/auth/ownership.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { isStaleServerCharge, reconcileServerCharge } from '../../shared/payments/server-charges.ts';
import { refundsOf } from '../../shared/payments/refunds.ts';
import { TransactionReferenceParamsSchema } from '../../shared/schemas/transaction-schemas.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

/**
 * GET /v1/transactions/{reference}: with the technical detail and the trace. Another merchant's is a 404. A
 * server-to-server charge the bank never answered is settled here from the bank's record, as the checkout read
 * settles a checkout charge; a bank still silent leaves it pending. Its refunds are listed, those left pending settled
 * likewise (shared/payments/refunds.ts).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.getTransaction,
  { params: TransactionReferenceParamsSchema },
  async (req, deps) => {
    const stored = requireOwned(await deps.transactions.get(req.params.reference), req.auth, { resource: 'transaction', field: 'reference' });
    const charged = isStaleServerCharge(stored, req.now) ? await reconcileServerCharge(deps, req.auth.merchant, stored) : stored;
    const { transaction, refunds } = await refundsOf(deps, req.auth.merchant, charged, req.now);
    return { statusCode: 200, body: toTransactionDetail(transaction, refunds) };
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment, userTokens: userTokensFromEnvironment },
);
