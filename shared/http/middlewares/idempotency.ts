import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Fingerprinter } from '../../crypto/secret-box.ts';
import { ApiError, ConflictError, ValidationError } from '../../errors.ts';
import type { RouteDefinition } from '../../routes.ts';
import { IdempotencyKeySchema } from '../../schemas/common.ts';
import type { IdempotencyStore, StoredResponse } from '../../store/idempotency-store.ts';
import { requestState } from '../request-state.ts';
import { jsonTextResponse } from '../response.ts';

export const REPLAY_HEADER = 'Idempotent-Replayed';

/** Same JSON, whatever the key order or spacing: the fingerprint compares meaning, not bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What identifies the request behind a key. A body with card data is fingerprinted with the card vault's keyed HMAC
 * (prefixed `hmac:`): an unkeyed hash of a card number and CVV can be reversed from the table by trying every CVV
 * (PCI DSS 3.3.1.2, 3.5.1.1). Other bodies carry nothing a guess could confirm, and keep a plain SHA-256.
 */
export async function requestFingerprint(route: RouteDefinition, path: string, body: unknown, fingerprinter?: Fingerprinter): Promise<string> {
  const text = `${route.method} ${path}\n${canonicalJson(body)}`;
  if (!route.cardData) return createHash('sha256').update(text).digest('hex');
  if (!fingerprinter) throw new Error(`Route ${route.method} ${route.path} carries card data and needs the fingerprints part.`);
  return `hmac:${await fingerprinter.fingerprint(text)}`;
}

/**
 * Idempotency-Key handling; the exact rules are in docs/idempotency.md. Runs after validation, so a request that
 * is refused as invalid never claims a key.
 */
export function idempotency(
  store: IdempotencyStore,
  clock: Clock,
  route: RouteDefinition,
  fingerprinter?: Fingerprinter,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const idempotencyBefore = async (request: Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const header = request.event.headers?.['idempotency-key'];
    if (header === undefined) {
      if (route.idempotency === 'required') {
        throw new ValidationError('This operation requires an Idempotency-Key header.', 'header.idempotency-key', 'idempotency_key_missing');
      }
      return;
    }
    const parsed = IdempotencyKeySchema.safeParse(header);
    if (!parsed.success) {
      throw new ValidationError('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.', 'header.idempotency-key', 'idempotency_key_invalid');
    }
    const state = requestState(request.context);
    const { merchant, mode } = state.auth!;
    const scope = { merchantId: merchant.id, mode, operation: `${route.method} ${route.path}`, key: parsed.data };
    const fingerprint = await requestFingerprint(route, request.event.path, state.input?.body ?? null, fingerprinter);
    const result = await store.claim(scope, fingerprint, clock.now());
    switch (result.kind) {
      case 'replay':
        return jsonTextResponse(result.response.statusCode, result.response.json, { [REPLAY_HEADER]: 'true' });
      case 'in_progress':
        throw new ConflictError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed. Retry shortly.', { 'Retry-After': '1' });
      case 'mismatch':
        throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body. Use a new key for a new request.', {
          field: 'header.idempotency-key',
        });
      case 'claimed': {
        const context = {
          claim: result.claim,
          committed: false,
          commit: (response: StoredResponse) => {
            context.committed = true;
            return store.completionItem(result.claim, response);
          },
        };
        state.idempotency = context;
      }
    }
  };

  const idempotencyOnError = async (request: Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const context = requestState(request.context).idempotency;
    // The failed request changed nothing, so its key is free again for a retry.
    if (context && !context.committed) await store.release(context.claim);
  };

  const idempotencyAfter = async (request: Request<APIGatewayProxyEvent, APIGatewayProxyResult>) => {
    const context = requestState(request.context).idempotency;
    if (context && !context.committed && request.response) {
      await store.complete(context.claim, { statusCode: request.response.statusCode, body: JSON.parse(request.response.body) });
    }
  };

  return { before: idempotencyBefore, after: idempotencyAfter, onError: idempotencyOnError, name: 'idempotency' };
}
