import type { Context } from 'aws-lambda';
import type { AuthContext } from '../auth/authenticator.ts';
import type { Claim } from '../store/idempotency-store.ts';
import type { IdempotencyContext } from './handler-types.ts';

/** What middlewares learn about a request, for later middlewares and the handler. */
export interface RequestState {
  auth?: AuthContext;
  input?: { body: unknown; query: unknown; params: unknown };
  idempotency?: IdempotencyContext & { claim: Claim; committed: boolean };
  /** The handler's account of its change, for the audit entry (ApiResult.auditDetail). */
  auditDetail?: Record<string, unknown>;
}

const STATE = Symbol('svc.requestState');

/**
 * Per-request state kept on the Lambda context: middy hands the handler only (event, context), so the context
 * is the one object that both middlewares and the handler see.
 */
export function requestState(context: Context): RequestState {
  const holder = context as Context & { [STATE]?: RequestState };
  return (holder[STATE] ??= {});
}
