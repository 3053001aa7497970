/**
 * The route manifest: the one list of /v1 operations. The CDK stack makes one Lambda and one API Gateway
 * method per entry; the sandbox serves the same entries by invoking the same handler modules.
 */
import type { OperationClass } from './domain/merchant.ts';

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** API Gateway resource path, with {parameters}. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler` (Lambda) and `build` (sandbox). */
  entry: string;
  /** secret: sk_/rk_ keys. */
  auth: 'secret';
  /** write routes are refused to read-only (rk_) keys. */
  access: 'read' | 'write';
  rateClass: OperationClass | null;
  idempotency: 'required' | 'optional' | 'none';
  summary: string;
}

export const routes = {
  createSession: {
    method: 'POST',
    path: '/v1/sessions',
    entry: 'functions/sessions/create-session.ts',
    auth: 'secret',
    access: 'write',
    rateClass: 'sessions',
    idempotency: 'optional',
    summary: 'Create a payment session',
  },
  getSession: {
    method: 'GET',
    path: '/v1/sessions/{reference}',
    entry: 'functions/sessions/get-session.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'Retrieve a payment session',
  },
  listSessions: {
    method: 'GET',
    path: '/v1/sessions',
    entry: 'functions/sessions/list-sessions.ts',
    auth: 'secret',
    access: 'read',
    rateClass: 'reads',
    idempotency: 'none',
    summary: 'List payment sessions, newest first',
  },
  expireSession: {
    method: 'POST',
    path: '/v1/sessions/{reference}/expire',
    entry: 'functions/sessions/expire-session.ts',
    auth: 'secret',
    access: 'write',
    rateClass: null,
    idempotency: 'none',
    summary: 'Close a payment session now',
  },
} as const satisfies Record<string, RouteDefinition>;

export type RouteId = keyof typeof routes;
export const routeIds = Object.keys(routes) as RouteId[];
