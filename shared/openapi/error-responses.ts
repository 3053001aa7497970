import type { OperationSchemas } from './response-schemas.ts';
import type { RouteDefinition } from '../routes.ts';

/**
 * The error statuses an operation can answer, each with its error codes: those its manifest entry implies (the
 * middleware chain of shared/http/api-handler.ts adds them to every such route) joined with the handler's own.
 */
export function errorStatuses(route: RouteDefinition, schemas: OperationSchemas): Map<number, string> {
  const statuses = new Map<number, string[]>();
  const add = (status: number, text: string | undefined) => {
    if (text) statuses.set(status, [...(statuses.get(status) ?? []), text]);
  };
  const hasInput = Boolean(schemas.body || schemas.query || schemas.params);
  add(400, hasInput ? 'parameter_missing, parameter_unknown, parameter_invalid: a parameter breaks its rule; `field` names it.' : undefined);
  add(400, schemas.body ? 'invalid_json: the body is not JSON.' : undefined);
  add(400, route.idempotency !== 'none' ? `idempotency_key_invalid${route.idempotency === 'required' ? ', idempotency_key_missing' : ''}: see the Idempotency-Key header.` : undefined);
  add(401, route.auth === 'secret' ? 'invalid_api_key: secret key missing, unknown or revoked.' : undefined);
  add(401, route.auth === 'checkout' ? 'invalid_api_key: a publishable key of another merchant or mode, or a secret key.' : undefined);
  add(403, route.auth === 'secret' && route.access === 'write' ? 'insufficient_permissions: a read-only key (rk_) on a write operation.' : undefined);
  add(404, route.auth === 'checkout' ? 'resource_missing: no such session.' : undefined);
  add(409, route.idempotency !== 'none' ? 'idempotency_in_progress: the first request with this key is still running; retry after Retry-After.' : undefined);
  add(413, schemas.body ? 'payload_too_large.' : undefined);
  add(415, schemas.body ? 'unsupported_media_type: send Content-Type: application/json.' : undefined);
  add(422, route.idempotency !== 'none' ? 'idempotency_key_reused: the key was used with a different body.' : undefined);
  add(429, route.rateClass ? `rate_limited: the ${route.rateClass} rate class of the merchant is full; retry after Retry-After.` : undefined);
  for (const [status, text] of Object.entries(schemas.responses.errors ?? {})) add(Number(status), text);
  add(500, 'internal_error: nothing was changed; retry later.');
  return new Map([...statuses].sort(([a], [b]) => a - b).map(([status, texts]) => [status, texts.join(' ')]));
}
