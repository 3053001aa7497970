import * as manifest from '../../shared/route-manifest.ts';
import { effectiveState } from '../../shared/domain/session-state.ts';
import { stateOf } from '../../shared/domain/session.ts';
import { toMerchantTransaction } from '../../shared/domain/transaction.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { P2cReferenceBodySchema } from '../../shared/schemas/checkout-schemas.ts';
import { SessionReferenceParamsSchema } from '../../shared/schemas/session-schemas.ts';
import { nextAction } from '../../shared/payments/charge-steps.ts';
import { submittedP2c, submitReference } from '../../shared/payments/p2c-verification.ts';
import { findSession } from '../../shared/payments/session-access.ts';
import { settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/**
 * POST /v1/sessions/{reference}/pago-movil-reference: the merchant's server submits a P2C reference the buyer sent by
 * another channel. The same attempt as the buyer's route; the answer is the merchant's view of the transaction (the
 * bank's code, the amount received).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.submitSessionPagoMovilReference,
  { params: SessionReferenceParamsSchema, body: P2cReferenceBodySchema },
  async (req, deps) => {
    const merchant = req.auth.merchant;
    const session = await settleStaleAttempt(deps, merchant, await findSession(deps, req.auth, req.params.reference), req.now);
    return submitReference(deps, merchant, session, submittedP2c(req.body), {
      now: req.now,
      idempotency: req.idempotency,
      answerOf: ({ after, transaction }) => {
        const { status, closedReason } = effectiveState(stateOf(after), deps.clock.now());
        return {
          statusCode: transaction.status === 'pending' ? 202 : 200,
          body: { transaction: toMerchantTransaction(transaction), session: { reference: after.reference, status, closedReason }, nextAction: nextAction(after, transaction) },
        };
      },
    });
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment, queues: queuesFromEnvironment },
);
