import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { CheckoutP2cReferenceBodySchema } from '../../shared/schemas/checkout-schemas.ts';
import { chargeAnswer } from '../../shared/payments/charge-steps.ts';
import { checkoutSession } from '../../shared/payments/checkout-session.ts';
import { submittedP2c, submitReference } from '../../shared/payments/p2c-verification.ts';
import { settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/**
 * POST /v1/checkout/pago-movil/reference: the buyer gives the reference of the P2C payment they sent; an attempt
 * answered as a charge is (200 with its result, 202 while the service searches again by itself).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.submitPagoMovilReference,
  { body: CheckoutP2cReferenceBodySchema },
  async (req, deps) => {
    const session = await settleStaleAttempt(deps, req.auth.merchant, checkoutSession(req.auth), req.now);
    return submitReference(deps, req.auth.merchant, session, submittedP2c(req.body), {
      now: req.now,
      idempotency: req.idempotency,
      answerOf: (step) => chargeAnswer(step.after, step.transaction, deps.clock.now()),
    });
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment, queues: queuesFromEnvironment },
);
