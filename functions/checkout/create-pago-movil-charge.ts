import * as manifest from '../../shared/route-manifest.ts';
import { decideChargeStart } from '../../shared/domain/charge-transitions.ts';
import { stateOf } from '../../shared/domain/session.ts';
import { newTransaction, type Transaction } from '../../shared/domain/transaction.ts';
import type { PaymentDeps } from '../../shared/deps.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import type { PagoMovilPayer } from '../../shared/gateways/pago-movil-port.ts';
import { prefixedId } from '../../shared/ids.ts';
import { PagoMovilChargeBodySchema } from '../../shared/schemas/checkout-schemas.ts';
import type { Session } from '../../shared/domain/session.ts';
import type { AttemptStep } from '../../shared/store/charge-store.ts';
import { applyOutcome, commitStep, startStep } from '../../shared/payments/charge-steps.ts';
import { checkoutSession, refuse } from '../../shared/payments/checkout-session.ts';
import { pagoMovilChannel, payerOf, pagoMovilParties } from '../../shared/payments/pago-movil-charges.ts';
import { decideOnFreshSession } from '../../shared/payments/session-contention.ts';
import { settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

/**
 * POST /v1/checkout/pago-movil/charge: the C2P debit of the buyer with the key their bank sent, as an attempt like a
 * card charge (the session to processing before the bank is called, so of simultaneous charges one reaches it). The
 * key goes to the bank in this one call and nowhere else.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.createPagoMovilCharge,
  { body: PagoMovilChargeBodySchema },
  async (req, deps) => {
    const merchant = req.auth.merchant;
    const session = await settleStaleAttempt(deps, merchant, checkoutSession(req.auth), req.now);
    const channel = await pagoMovilChannel(deps, merchant, session, 'pago_movil_c2p');
    const payer = payerOf(req.body);
    const started = await startAttempt(deps, session, channel.gateway, payer, req.now);
    const { transaction } = started;
    const outcome = await deps.gateways(channel.gateway).charge(
      {
        transactionReference: transaction.reference,
        sessionReference: session.reference,
        amountMinor: session.amountMinor,
        currency: session.currency,
        payment: { type: 'pago_movil_c2p', payer, key: req.body.key },
        client: req.client,
        pagoMovil: pagoMovilParties(merchant, transaction),
      },
      channel.account,
    );
    return applyOutcome(deps, started.after, transaction, outcome, req.idempotency);
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment },
);

/** The session to processing with a new pending C2P transaction, deciding again after each lost race. */
const startAttempt = (deps: PaymentDeps, first: Session, gateway: Transaction['gateway'], payer: PagoMovilPayer, now: number): Promise<AttemptStep> =>
  decideOnFreshSession(deps, first, async (session) => {
    const decision = decideChargeStart(stateOf(session), now);
    if (decision.kind === 'refuse') refuse(decision.refusal);
    const context = { merchantId: session.merchantId, mode: session.mode, sessionReference: session.reference, gateway, amountMinor: session.amountMinor, currency: session.currency, now, metadata: session.metadata };
    const transaction: Transaction = {
      ...newTransaction({ reference: prefixedId('txn') }, context, null, payer.document),
      method: 'pago_movil_c2p',
      pagoMovil: { bankCode: payer.bankCode, phone: payer.phone },
    };
    const started = startStep(session, transaction);
    await commitStep(deps, started, null);
    return started;
  });
