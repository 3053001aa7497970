import * as manifest from '../../shared/route-manifest.ts';
import { stateOf, toSessionResource } from '../../shared/domain/session.ts';
import { decideMerchantExpire } from '../../shared/domain/session-state.ts';
import { ConflictError } from '../../shared/errors.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { SessionReferenceParamsSchema } from '../../shared/schemas/session-schemas.ts';
import { findSession } from '../../shared/payments/session-access.ts';
import { closeSession } from '../../shared/payments/close-session.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';

const REJECTIONS = {
  mode_mismatch: 'This session was created with the other mode\'s key (test versus live). Use the key of the mode that created it.',
  session_completed: 'This session is already paid (completed) and cannot be expired.',
  charge_in_flight: 'A charge is in flight on this session. Retry once it is resolved; a rejected charge makes the session expirable.',
} as const;

export const { build, handler, schemas } = defineApiHandler(
  manifest.expireSession,
  {
    params: SessionReferenceParamsSchema,
  },
  async (req, deps) => {
    const result = await closeSession(deps, {
      read: () => findSession(deps, req.auth, req.params.reference, { anyMode: true }),
      decide: async (session) => {
        const decision = decideMerchantExpire(stateOf(session), req.now, req.auth.mode);
        if (decision.kind === 'reject') throw new ConflictError(decision.code, REJECTIONS[decision.code]);
        return decision.kind === 'unchanged' ? { kind: 'keep', session } : { kind: 'close', reason: decision.reason, session };
      },
      merchant: async () => req.auth.merchant,
      now: req.now,
    });
    // findSession answers 404 rather than returning nothing.
    return { statusCode: 200, body: toSessionResource(result!.session, req.now, deps.config.checkoutBaseUrl) };
  },
  { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment },
);
