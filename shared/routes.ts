/**
 * The route table: what a route entry declares (RouteDefinition) and every entry by id (the entries themselves are
 * in shared/route-manifest.ts). The CDK stack makes one Lambda and one API Gateway method per entry; the sandbox
 * serves the same entries by invoking the same handler modules.
 */
import type { OperationClass } from './domain/merchant.ts';
import type { Role } from './domain/roles.ts';
import type { FunctionNeed } from './function-needs.ts';
import type { ReusedRouteAudit } from './http/middlewares/audit-user-change.ts';
import * as manifest from './route-manifest.ts';
import type { QueueName } from './workers.ts';

export interface RouteDefinition {
  /** The route's id: its export name in shared/route-manifest.ts, the name of its Lambda function and of its logs. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway resource path, with {parameters}. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler` (Lambda) and `build` (sandbox). */
  entry: string;
  /**
   * secret: sk_/rk_ keys (and a dashboard user's token when `dashboard` is set). user: a dashboard user's token only.
   * checkout: the buyer's browser, authorised by the session reference (path or body) and,
   * when sent, a publishable key (pk_) of the session's merchant and mode. public: no key (the OpenAPI document).
   */
  auth: 'secret' | 'checkout' | 'public' | 'user';
  /** write routes are refused to read-only (rk_) keys. */
  access: 'read' | 'write';
  /**
   * The table access the function is granted, when it differs from `access` (what the key must be allowed): a read
   * that settles what it reads writes the table, yet stays open to read-only keys.
   */
  tableAccess?: 'read' | 'write';
  rateClass: OperationClass | null;
  idempotency: 'required' | 'optional' | 'none';
  /** Keys and banks the handler uses beyond the table; the stack grants exactly these (shared/function-needs.ts). */
  needs?: readonly FunctionNeed[];
  /** The least dashboard role that may call the route with a user token (read_only < developer < admin); absent: none. */
  dashboard?: Role;
  /** Left out of the public OpenAPI document: the dashboard's own routes (docs/dashboard.md). */
  internal?: true;
  /** Open to an admin whose sign-in had no MFA yet (shared/dashboard/dashboard-sessions.ts): what enrolling one takes. */
  beforeMfa?: true;
  /**
   * The body carries card data (number, CVV): anything derived from it, such as the Idempotency-Key's request
   * fingerprint, is the card vault's keyed HMAC, never an unkeyed hash (docs/security.md). Needs `fingerprints`.
   */
  cardData?: true;
  /**
   * A /v1 write route a dashboard user may call: what its audit log entry records (shared/http/middlewares/
   * audit-user-change.ts). The /v1/dashboard routes record their own.
   */
  audit?: ReusedRouteAudit;
  /** Queues the handler sends to (a test event, a manual retry), so the stack grants exactly those. */
  sendsTo?: readonly QueueName[];
}

/** Whether the route's function may write the table (the stack's grant), whatever its keys. */
export const writesTable = (route: RouteDefinition): boolean => (route.tableAccess ?? route.access) === 'write';

/** Every route of the manifest (shared/route-manifest.ts), by id; each entry's id is its key. */
export const routes: { [Id in keyof typeof manifest]: (typeof manifest)[Id] & { id: Id } } = manifest;

export type RouteId = keyof typeof routes;
export const routeIds = Object.keys(routes) as RouteId[];
