import type { AuthContext } from '../auth/authenticator.ts';
import type { SignedInSession } from '../dashboard/current-session.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import type { Session } from '../domain/session.ts';
import type { Claim, StoredResponse } from '../store/idempotency-store.ts';
import type { TransactItem } from '../store/session-store.ts';
import type { PayerClient } from '../gateways/payment-gateway.ts';

/** A checkout route's caller: the session named in the input (and the publishable key, when sent). */
export type CheckoutAuth = AuthContext & { session: Session };
/** A dashboard route's caller: a signed-in user and the session of their token. */
export type UserAuth = AuthContext & { user: DashboardUser; dashboardSession: SignedInSession };
/**
 * Who called, by the route's `auth`: a merchant's key (or a dashboard user, where the route names a role), the
 * checkout session, or a signed-in user; a public route has no caller, so its request has no `auth`.
 */
export type AuthOf<R> = R extends { auth: 'user' } ? UserAuth : R extends { auth: 'checkout' } ? CheckoutAuth : R extends { auth: 'secret' } ? AuthContext : never;

/** What a handler function receives: validated input, the caller (none on a public route), and the request's time. */
export type ApiRequest<B = unknown, Q = unknown, P = unknown, A = AuthContext> = RequestFields<B, Q, P> & ([A] extends [never] ? unknown : { auth: A });

interface RequestFields<B, Q, P> {
  body: B;
  query: Q;
  params: P;
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
