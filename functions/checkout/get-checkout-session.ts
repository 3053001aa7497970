import { toCheckoutView } from '../../shared/domain/checkout-view.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { CheckoutSessionParamsSchema } from '../../shared/schemas/checkout-schemas.ts';
import { openProcessorPayment } from '../../shared/payments/processor-payments.ts';
import { nextAction } from '../../shared/payments/charge-steps.ts';
import { checkoutSession } from '../../shared/payments/checkout-session.ts';
import { isVerifying } from '../../shared/payments/p2c-verification.ts';
import { settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

/**
 * GET /v1/checkout/sessions/{reference}. The page polls it while a charge is pending, which settles stale attempts;
 * on a USD processor session, the first read opens the pending payment at the processor. A session awaiting a code
 * also carries the charge answer's nextAction.
 */
export const { build, handler, schemas } = defineApiHandler(manifest.getCheckoutSession, { params: CheckoutSessionParamsSchema }, async (req, deps) => {
  const current = await settleStaleAttempt(deps, req.auth.merchant, checkoutSession(req.auth), req.now);
  const session = await openProcessorPayment(deps, req.auth.merchant, current, req.now);
  const card = session.cardToken ? await deps.cards.get(session.cardToken) : null;
  // A page opened on a code step awaited learns what the bank asks for and the entries left, as the charge answer said;
  // one on a P2C reference being verified, when the service searches again.
  const awaiting = session.lastTransaction && (session.status === 'otp_requested' || isVerifying(session)) ? await deps.transactions.get(session.lastTransaction.reference) : null;
  return { statusCode: 200, body: { ...toCheckoutView(session, card, req.auth.merchant, req.now, deps.config.simulatedGateways), nextAction: awaiting ? nextAction(session, awaiting) : null } };
}, { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment });
