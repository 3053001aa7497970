import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import type { RouteSchemas } from '../http/api-handler.ts';
import { routes, type RouteDefinition, type RouteId } from '../routes.ts';
import { ErrorSchema, IdempotencyKeySchema } from '../schemas/common.ts';
import { errorStatuses } from './error-responses.ts';
import { loadRouteSchemas } from './load-route-schemas.ts';

/** Operations are grouped by path; the first tag whose prefix matches wins, so Meta (everything else) comes last. */
const TAGS = [
  { name: 'Sessions', description: 'Payment sessions: created by the merchant server, paid by the buyer in the checkout.', prefixes: ['/v1/sessions'] },
  { name: 'Checkout', description: 'What the hosted checkout page calls from the buyer browser.', prefixes: ['/v1/checkout'] },
  { name: 'Transactions', description: 'One transaction per payment attempt.', prefixes: ['/v1/transactions'] },
  { name: 'Analytics', description: 'Counts and volumes of live transactions.', prefixes: ['/v1/analytics'] },
  { name: 'Cards', description: 'Stored cards (tok_svc_...) and server-to-server charges.', prefixes: ['/v1/cards', '/v1/charges'] },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, and the log of deliveries.', prefixes: ['/v1/webhooks'] },
  { name: 'Meta', description: 'About the API itself.', prefixes: ['/v1/'] },
] as const;

const tagOf = (path: string) => TAGS.find((t) => t.prefixes.some((prefix) => path.startsWith(prefix)))!.name;

const idempotencyHeader = (required: boolean) =>
  z.object({
    'Idempotency-Key': (required ? IdempotencyKeySchema : IdempotencyKeySchema.optional()).meta({
      description: 'Makes the request safe to retry: a repeat with the same key and body replays the stored answer (header Idempotent-Replayed: true) for 24 hours.',
      example: 'order-42-attempt-1',
    }),
  });

const retryAfter = { 'Retry-After': { description: 'Whole seconds to wait.', schema: { type: 'integer' as const } } };

function responsesOf(route: RouteDefinition, schemas: RouteSchemas): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, schema] of Object.entries(schemas.responses?.success ?? {})) {
    responses[status as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: status === '202' ? 'Accepted; the result follows.' : 'Success.',
      ...(route.idempotency !== 'none' ? { headers: { 'Idempotent-Replayed': { description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string' } } } } : {}),
      content: { [schemas.responses?.mediaType ?? 'application/json']: { schema } },
    };
  }
  for (const [status, codes] of errorStatuses(route, schemas)) {
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: codes,
      // Sent with 429, and with 409 idempotency_in_progress.
      ...(status === 429 || (status === 409 && route.idempotency !== 'none') ? { headers: retryAfter } : {}),
      content: { 'application/json': { schema: ErrorSchema } },
    };
  }
  return responses;
}

function operationOf(id: RouteId, route: RouteDefinition, schemas: RouteSchemas): ZodOpenApiOperationObject {
  const header = route.idempotency === 'none' ? undefined : idempotencyHeader(route.idempotency === 'required');
  // zod-openapi reads every key it is given: absent parts must be left out, not set to undefined.
  const parts = { path: schemas.params, query: schemas.query, header };
  const requestParams = Object.fromEntries(Object.entries(parts).filter(([, schema]) => schema)) as ZodOpenApiOperationObject['requestParams'];
  return {
    operationId: id,
    summary: route.summary,
    tags: [tagOf(route.path)],
    security: route.auth === 'secret' ? [{ secretKey: [] }] : route.auth === 'checkout' ? [{}, { publishableKey: [] }] : [],
    ...(route.rateClass ? { 'x-rate-class': route.rateClass } : {}),
    requestParams,
    ...(schemas.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemas.body } } } } : {}),
    responses: responsesOf(route, schemas),
  };
}

/**
 * The OpenAPI 3.1 document of the API, from the route manifest and the zod schemas each handler validates and
 * answers with (see loadRouteSchemas): nothing here is written twice.
 *
 * @example
 * const document = buildOpenApiDocument(await loadRouteSchemas(), { serverUrl: 'http://localhost:4010' });
 */
export function buildOpenApiDocument(routeSchemas: Record<RouteId, RouteSchemas>, { serverUrl }: { serverUrl: string }): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const id of Object.keys(routes) as RouteId[]) {
    const route: RouteDefinition = routes[id];
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(id, route, routeSchemas[id]) };
  }
  const usedTags = new Set(Object.values(routes).map((r) => tagOf(r.path)));
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'svc payments API',
      version: '1.0.0',
      description: 'Payment sessions, a hosted checkout, stored cards and signed webhooks. Amounts are integers in minor units. Every error has one shape (Error); branch on `code`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl }],
    tags: TAGS.filter((t) => usedTags.has(t.name)).map(({ name, description }) => ({ name, description })),
    components: {
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'Server side only: sk_test_... or sk_live_...; read-only rk_ keys reach read operations.' },
        publishableKey: { type: 'http', scheme: 'bearer', description: 'Optional on checkout operations: pk_test_... or pk_live_... of the session merchant and mode. The session reference authorises the call.' },
      },
    },
    paths,
  });
}

/**
 * The document GET /v1/openapi.json serves (shared/openapi/served-document.ts): its server is '/', so the sandbox and
 * every stage describe the origin that serves them.
 */
export async function servedOpenApiDocument(): Promise<ReturnType<typeof createDocument>> {
  return buildOpenApiDocument(await loadRouteSchemas(), { serverUrl: '/' });
}
