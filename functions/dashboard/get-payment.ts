import { toSessionResource } from '../../shared/domain/session.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { toTransactionDetail, type Transaction } from '../../shared/domain/transaction.ts';
import { requireOwned } from '../../shared/auth/ownership.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { deliveriesOfPayment } from '../../shared/dashboard/payment-deliveries.ts';
import { PaymentReferenceParamsSchema } from '../../shared/schemas/dashboard-schemas.ts';

/**
 * GET /v1/dashboard/payments/{reference}: the session (null for a server-to-server charge), every attempt with
 * its bank code, Spanish reason, document, trace and refunds, and the webhook deliveries of its events (payment-deliveries.ts). A transaction of a session answers its session. Read only:
 * a pending attempt or refund is shown as stored (GET /v1/transactions/{reference} and its refunds settle them).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.getDashboardPayment,
  { params: PaymentReferenceParamsSchema },
  async (req, deps) => {
    // Only an attempt something was refunded from (or is being) has refunds to read.
    const detailOf = async (t: Transaction) => toTransactionDetail(t, t.amountReservedMinor ? await deps.refunds.list(t.reference) : []);
    const missing = { resource: 'payment', field: 'reference' };
    let reference = req.params.reference;
    if (reference.startsWith('txn_')) {
      const transaction = requireOwned(await deps.transactions.get(reference), req.auth, missing);
      if (!transaction.sessionReference) {
        const deliveries = await deliveriesOfPayment(deps, { ...transaction, references: [transaction.reference], from: transaction.createdAt, to: transaction.updatedAt });
        return { statusCode: 200, body: { session: null, transactions: [await detailOf(transaction)], deliveries } };
      }
      reference = transaction.sessionReference;
    }
    const session = requireOwned(await deps.sessions.get(reference), req.auth, missing);
    const attempts = (await Promise.all((session.transactionReferences ?? []).map((r) => deps.transactions.get(r)))).flatMap((t) => (t ? [t] : []));
    const lastChange = [session.expiresAt, session.closedAt ?? '', ...attempts.map((t) => t.updatedAt)].reduce((a, b) => (a > b ? a : b));
    const deliveries = await deliveriesOfPayment(deps, { ...session, references: [session.reference, ...attempts.map((t) => t.reference)], from: session.createdAt, to: lastChange });
    return {
      statusCode: 200,
      body: { session: toSessionResource(session, req.now, deps.config.checkoutBaseUrl), transactions: await Promise.all(attempts.map(detailOf)), deliveries },
    };
  },
  { userTokens: userTokensFromEnvironment },
);
