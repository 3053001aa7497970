import { sessionExpiredEvent } from '../../shared/domain/events.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { GATEWAYS } from '../../shared/domain/merchant.ts';
import { stateOf, toSessionResource } from '../../shared/domain/session.ts';
import { decideMerchantExpire } from '../../shared/domain/session-state.ts';
import { ConflictError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { SessionReferenceParamsSchema } from '../../shared/schemas/session-schemas.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import { closeWithProcessor } from '../../shared/payments/processor-payments.ts';
import { findSession } from './session-access.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

const REJECTIONS = {
  mode_mismatch: 'This session was created with the other mode\'s key (test versus live). Use the key of the mode that created it.',
  session_completed: 'This session is already paid (completed) and cannot be expired.',
  charge_in_flight: 'A charge is in flight on this session. Retry once it is resolved; a rejected charge makes the session expirable.',
} as const;

/** Races with a charge are settled by the conditional write: the loser reads again and decides again. */
const MAX_DECISIONS = 3;

export const { build, handler, schemas } = defineApiHandler(
  manifest.expireSession,
  {
    params: SessionReferenceParamsSchema,
  },
  async (req, deps) => {
    let session = await findSession(deps, req.auth, req.params.reference, { anyMode: true });
    for (let attempt = 1; ; attempt++) {
      const decision = decideMerchantExpire(stateOf(session), req.now, req.auth.mode);
      if (decision.kind === 'reject') throw new ConflictError(decision.code, REJECTIONS[decision.code]);
      if (decision.kind === 'unchanged') break;
      const closedAt = new Date(req.now).toISOString();
      try {
        session =
          GATEWAYS[session.gateway].pendingPayments
            ? await closeWithProcessor(deps, req.auth.merchant, session, decision.reason, req.now)
            : await deps.sessions.close(session, decision.reason, closedAt, sessionExpiredEvent(session, decision.reason, closedAt));
        break;
      } catch (error) {
        if (!(error instanceof ConditionFailedError) || attempt >= MAX_DECISIONS) throw error;
        session = await findSession(deps, req.auth, req.params.reference, { anyMode: true });
      }
    }
    return { statusCode: 200, body: toSessionResource(session, req.now, deps.config.checkoutBaseUrl) };
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment },
);
