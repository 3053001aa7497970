import type { MiddlewareObj, Request } from '@middy/core';
import type { Clock } from '../../clock.ts';
import { closedForCharges } from '../../domain/charge-transitions.ts';
import type { OperationClass } from '../../domain/merchant.ts';
import { CHECKOUT_SESSION_BUDGET, CHECKOUT_SESSION_COUNTER, limitFor } from '../../domain/rate-limits.ts';
import { stateOf } from '../../domain/session.ts';
import type { ServiceMetrics } from '../../observability/metrics.ts';
import { RateLimitError } from '../../errors.ts';
import type { RateLimitStore } from '../../store/rate-limit-store.ts';
import { requestState } from '../request-state.ts';

/**
 * Counts the request against its merchant's limit for the class; 429 with Retry-After once a window is full.
 * A checkout request names its session: a closed one is not counted at all (the handler answers its 409/410, or the
 * Idempotency-Key replays the stored answer), and an open one counts against the session's own budget before the
 * merchant's class, so that one `cs_` reference cannot use up the merchant's limit (docs/security.md, finding 5).
 */
export function rateLimit(store: RateLimitStore, clock: Clock, operationClass: OperationClass, metrics?: ServiceMetrics): MiddlewareObj {
  const rateLimitBefore = async (request: Request) => {
    const { merchant, session } = requestState(request.context).auth!;
    const now = clock.now();
    if (session) {
      if (closedForCharges(stateOf(session), now)) return;
      const own = await store.consume(session.reference, CHECKOUT_SESSION_COUNTER, CHECKOUT_SESSION_BUDGET, now);
      if (!own.allowed) throw new RateLimitError(own.retryAfterSeconds);
    }
    const result = await store.consume(merchant.id, operationClass, limitFor(merchant, operationClass), now);
    if (!result.allowed) {
      metrics?.rateLimitRejection(operationClass);
      throw new RateLimitError(result.retryAfterSeconds);
    }
  };
  return { before: rateLimitBefore, name: 'rateLimit' };
}
