import * as manifest from '../../shared/route-manifest.ts';
import { decideChargeStart } from '../../shared/domain/charge-transitions.ts';
import { SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { stateOf } from '../../shared/domain/session.ts';
import { ApiError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { GatewayUnavailableError } from '../../shared/gateways/payment-gateway.ts';
import { PagoMovilKeyBodySchema } from '../../shared/schemas/checkout-schemas.ts';
import { checkoutSession, refuse } from '../../shared/payments/checkout-session.ts';
import { pagoMovilChannel, countKeyRequest, payerOf } from '../../shared/payments/pago-movil-charges.ts';
import { settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

const unavailable = (detail: string) => new ApiError(503, SERVICE_CODES.PROCESSOR_UNAVAILABLE, `The payer's bank could not be asked for a payment key: ${detail} Retry.`);

/**
 * POST /v1/checkout/pago-movil/key: asks the payer's bank to send them a C2P payment key (an SMS). Changes no
 * session state; only an open session that takes pago_movil_c2p may ask, within its bounds (pago-movil-charges.ts).
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.requestPagoMovilKey,
  { body: PagoMovilKeyBodySchema },
  async (req, deps) => {
    const session = await settleStaleAttempt(deps, req.auth.merchant, checkoutSession(req.auth), req.now);
    const decision = decideChargeStart(stateOf(session), req.now);
    if (decision.kind === 'refuse') refuse(decision.refusal);
    const channel = await pagoMovilChannel(deps, req.auth.merchant, session, 'pago_movil_c2p');
    const gateway = deps.gateways(channel.gateway);
    if (!gateway.pagoMovil) throw new Error(`${channel.gateway} is set up for pago móvil but its gateway has no pagoMovil port`);
    const payer = payerOf(req.body);
    const keysRemaining = await countKeyRequest(deps, session, payer.phone, req.now);
    let outcome;
    try {
      outcome = await gateway.pagoMovil.sendKey(payer, channel.account, req.client);
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      throw unavailable(error.message);
    }
    if (outcome.kind === 'failed') throw unavailable(`${outcome.code}: ${outcome.detail}`);
    // The bank's own reason, in Spanish, is what the buyer reads: their bank refused (unknown phone, not affiliated...).
    if (outcome.kind === 'refused') throw new ApiError(422, 'payment_key_refused', outcome.reason ?? outcome.detail, { field: 'phone' });
    return { statusCode: 200, body: { sent: true, sessionReference: session.reference, keysRemaining } };
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment },
);
