import type { MiddlewareObj, Request } from '@middy/core';
import type { Clock } from '../../clock.ts';
import type { OperationClass } from '../../domain/merchant.ts';
import type { ServiceMetrics } from '../../observability/metrics.ts';
import { limitFor } from '../../domain/rate-limits.ts';
import { RateLimitError } from '../../errors.ts';
import type { RateLimitStore } from '../../store/rate-limit-store.ts';
import { requestState } from '../request-state.ts';

/** Counts the request against its merchant's limit for the class; 429 with Retry-After once a window is full. */
export function rateLimit(store: RateLimitStore, clock: Clock, operationClass: OperationClass, metrics?: ServiceMetrics): MiddlewareObj {
  const rateLimitBefore = async (request: Request) => {
    const { merchant } = requestState(request.context).auth!;
    const result = await store.consume(merchant.id, operationClass, limitFor(merchant, operationClass), clock.now());
    if (!result.allowed) {
      metrics?.rateLimitRejection(operationClass);
      throw new RateLimitError(result.retryAfterSeconds);
    }
  };
  return { before: rateLimitBefore, name: 'rateLimit' };
}
