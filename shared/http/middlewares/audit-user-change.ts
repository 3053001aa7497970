import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { auditEntry, type AuditAction } from '../../domain/audit-entry.ts';
import type { Clock } from '../../clock.ts';
import type { AuditStore } from '../../store/audit-store.ts';
import { requestState } from '../request-state.ts';

/** What a reused /v1 write route records when a dashboard user calls it: the action and where its target is. */
export interface ReusedRouteAudit {
  action: AuditAction;
  /** The path parameter naming the target; absent: the `id` of the answer (a created endpoint). */
  param?: string;
  /** Query parameters worth keeping (the sample event's type). */
  query?: readonly string[];
}

/**
 * Records a dashboard user's change made through a reused /v1 route (the routes under /v1/dashboard record their
 * own, in the transaction of the change), and the same change made with an API key a dashboard user minted, under
 * that user and naming the key (keys the platform issued have no user and record nothing). Written right after the
 * change succeeded, not in its transaction: these handlers are shared with API-key callers. A failed change records
 * nothing.
 */
export function auditUserChange(audit: AuditStore, clock: Clock, what: ReusedRouteAudit): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const auditUserChangeAfter = async (request: Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const auth = requestState(request.context).auth;
    const minter = auth?.apiKey?.createdBy;
    const user = auth?.user ?? (auth && minter ? { id: minter.userId, email: minter.email, merchantId: auth.merchant.id } : undefined);
    const response = request.response;
    if (!user || !response || response.statusCode >= 300) return;
    const target = what.param ? request.event.pathParameters?.[what.param] : (JSON.parse(response.body) as { id?: string }).id;
    const query = Object.fromEntries((what.query ?? []).flatMap((name) => (request.event.queryStringParameters?.[name] ? [[name, request.event.queryStringParameters[name]]] : [])));
    const viaKey = auth?.user || !auth?.apiKey ? {} : { apiKey: { id: auth.apiKey.id, hint: auth.apiKey.hint } };
    const detail = { ...query, ...requestState(request.context).auditDetail, ...viaKey };
    await audit.record(auditEntry(user, clock.now(), what.action, target ?? '', detail));
  };
  return { after: auditUserChangeAfter, name: 'auditUserChange' };
}
