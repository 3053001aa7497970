import { ownedBy } from '../../shared/auth/ownership.ts';
import { GATEWAYS, modeConflict } from '../../shared/domain/merchant.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { newSession, toSessionResource } from '../../shared/domain/session.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { offeredMethods, sessionMethods } from '../../shared/domain/payment-method.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { newId, prefixedId } from '../../shared/ids.ts';
import { guardCustomer } from '../../shared/payments/card-vault.ts';
import { CreateSessionBodySchema } from '../../shared/schemas/session-schemas.ts';

export const { build, handler, schemas } = defineApiHandler(
  manifest.createSession,
  {
    body: CreateSessionBodySchema,
  },
  async (req, deps) => {
    const { merchant, mode } = req.auth;
    if (!merchant.provisioned) {
      throw new ConflictError('merchant_not_provisioned', 'This merchant is not provisioned yet. Contact support to finish onboarding.');
    }
    const conflict = modeConflict(merchant, mode, req.body.currency);
    if (conflict) throw new ConflictError(conflict.code, conflict.message);
    const gateway = merchant.gateways[req.body.currency];

    // The card is checked now, at creation, not when the buyer pays.
    const card = req.body.cardToken ? await deps.cards.get(req.body.cardToken) : null;
    if (req.body.cardToken) {
      if (!ownedBy(card, { merchant, mode }) || card.status === 'deleted') {
        throw new NotFoundError('card', 'cardToken');
      }
      if (GATEWAYS[card.gateway].storedCardsWithoutCvv) {
        throw new ConflictError('card_flow_unsupported', 'This card is stored at a gateway that does not ask for a CVV; charge it server to server with POST /v1/charges.');
      }
      guardCustomer(card, req.body.customerRef);
    }

    const methods = sessionMethods(offeredMethods(merchant, req.body.currency), req.body.paymentMethods, card !== null);
    if (!methods.ok) throw new ValidationError(methods.message, 'paymentMethods', 'payment_method_unavailable');

    const session = newSession(req.body, { id: newId(), reference: prefixedId('cs') }, { merchantId: merchant.id, mode, gateway, paymentMethods: methods.methods, now: req.now, card });
    const resource = toSessionResource(session, req.now, deps.config.checkoutBaseUrl);
    const response = { statusCode: 201, body: resource };
    await deps.sessions.create(session, req.idempotency ? [req.idempotency.commit(response)] : []);
    return response;
  },
);
