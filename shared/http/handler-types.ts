import type { AuthContext } from '../auth/authenticator.ts';
import type { Claim, StoredResponse } from '../store/idempotency-store.ts';
import type { TransactItem } from '../store/session-store.ts';
import type { PayerClient } from '../gateways/payment-gateway.ts';

/** What a handler function receives: validated input, the caller, and the request's time. */
export interface ApiRequest<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  params: P;
  auth: AuthContext;
  /** Milliseconds since the epoch, read once per request from the injected clock. */
  now: number;
  requestId: string;
  /** Present when the caller sent an Idempotency-Key. */
  idempotency?: IdempotencyContext;
  /** The caller's IP address and browser as API Gateway saw them: the payer's, on checkout routes (connectors send them). */
  client: PayerClient;
}

export interface IdempotencyContext {
  /** The write that stores this response; add it to the transaction that makes the request's change. */
  commit(response: StoredResponse): TransactItem;
  /** The key and its scope: a retry of the same request (after a crash, once the claim is free) has the same. */
  readonly claim: Claim;
}

export interface ApiResult {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Set: the answer is these bytes (an image, `Content-Type` in headers) instead of `body` as JSON. */
  bytes?: Uint8Array;
  /** What a reused route's audit entry records of the change (old and new values), never a secret. */
  auditDetail?: Record<string, unknown>;
}
