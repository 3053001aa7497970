import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import type { OperationSchemas } from './response-schemas.ts';
import { routes, type RouteDefinition, type RouteId } from '../routes.ts';
import { reasonPhrase } from '../errors.ts';
import { DEFAULT_DOCS_BASE_URL, docUrlFor } from '../http/request-id.ts';
import { IdempotencyKeySchema } from '../schemas/common.ts';
import { ErrorSchema } from '../schemas/common-responses.ts';
import { errorStatuses } from './error-responses.ts';
import { loadRouteSchemas } from './load-route-schemas.ts';
import { OPERATION_DESCRIPTIONS, type PublicRouteId } from './operation-descriptions.ts';
import { OPERATION_SUMMARIES } from './operation-summaries.ts';
import { OPERATION_EXAMPLES, type OperationExample } from './operation-examples.ts';
import { webhooksSection } from './webhooks-section.ts';

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
const EVENTS_TAG = { name: 'Events', description: 'What your webhook endpoint receives: one signed POST per event (the webhooks section).' };

const tagOf = (path: string) => TAGS.find((t) => t.prefixes.some((prefix) => path.startsWith(prefix)))!.name;

const idempotencyHeader = (required: boolean) =>
  z.object({
    'Idempotency-Key': (required ? IdempotencyKeySchema : IdempotencyKeySchema.optional()).meta({
      description: 'Makes the request safe to retry: a repeat with the same key and body replays the stored answer (header Idempotent-Replayed: true) for 24 hours.',
      example: 'order-42-attempt-1',
    }),
  });

const retryAfter = { 'Retry-After': { description: 'Whole seconds to wait.', schema: { type: 'integer' as const } } };
/** On every answer, success or error (docs/errors.md, "Request ids"). */
const requestIdHeader = { 'Request-Id': { description: "The request's id (req_...): quote it to support; error bodies carry it as requestId.", schema: { type: 'string' as const } } };

/** An example body of an error status: its first documented code, in the one error shape. */
function errorExample(status: number, codes: string) {
  const [code = 'internal_error', text = ''] = /^([a-z_]+)[:.,]?\s*([^.;]*)/.exec(codes)?.slice(1) ?? [];
  const message = status === 429 ? 'Rate limit exceeded. Please retry later.' : text ? `${text[0]!.toUpperCase()}${text.slice(1)}.` : `${reasonPhrase[status]}.`;
  return { statusCode: status, error: reasonPhrase[status], message, code, requestId: 'req_4a7c2f0e-58f1-4b43-9d0c-2d6f0c8e1b3a', docUrl: docUrlFor(DEFAULT_DOCS_BASE_URL, code) };
}

function responsesOf(route: RouteDefinition, schemas: OperationSchemas, example: OperationExample | undefined): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, schema] of Object.entries(schemas.responses.success ?? {})) {
    const exampleBody = example?.response.status === Number(status) && example.response.body !== undefined ? { example: example.response.body } : {};
    responses[status as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: status === '202' ? 'Accepted; the result follows.' : 'Success.',
      headers: {
        ...requestIdHeader,
        ...(route.idempotency !== 'none' ? { 'Idempotent-Replayed': { description: 'true when this is the stored answer of an earlier request with the same Idempotency-Key.', schema: { type: 'string' } } } : {}),
      },
      content: { [schemas.responses.mediaType ?? 'application/json']: { schema, ...exampleBody } },
    };
  }
  for (const [status, codes] of errorStatuses(route, schemas)) {
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: codes,
      // Sent with 429, and with 409 idempotency_in_progress.
      headers: { ...requestIdHeader, ...(status === 429 || (status === 409 && route.idempotency !== 'none') ? retryAfter : {}) },
      // Invalid parameters keep the Error schema's own example, a parameter_invalid answer with its errors[].
      content: { 'application/json': { schema: ErrorSchema, ...(codes.startsWith('parameter_') ? {} : { example: errorExample(status, codes) }) } },
    };
  }
  return responses;
}

function operationOf(id: PublicRouteId, route: RouteDefinition, schemas: OperationSchemas): ZodOpenApiOperationObject {
  const header = route.idempotency === 'none' ? undefined : idempotencyHeader(route.idempotency === 'required');
  // zod-openapi reads every key it is given: absent parts must be left out, not set to undefined.
  const parts = { path: schemas.params, query: schemas.query, header };
  const requestParams = Object.fromEntries(Object.entries(parts).filter(([, schema]) => schema)) as ZodOpenApiOperationObject['requestParams'];
  const example = OPERATION_EXAMPLES[id];
  const bodyExample = example?.request.body !== undefined ? { example: example.request.body } : {};
  return {
    operationId: id,
    summary: OPERATION_SUMMARIES[id],
    description: OPERATION_DESCRIPTIONS[id],
    tags: [tagOf(route.path)],
    security: route.auth === 'secret' ? [{ secretKey: [] }] : route.auth === 'checkout' ? [{}, { publishableKey: [] }] : [],
    ...(route.rateClass ? { 'x-rate-class': route.rateClass } : {}),
    requestParams,
    ...(schemas.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemas.body, ...bodyExample } } } } : {}),
    responses: responsesOf(route, schemas, example),
  };
}

/** The example request's path and query values, as examples of the operation's parameters (set after zod-openapi made them). */
function addParameterExamples(document: ReturnType<typeof createDocument>): void {
  for (const [template, operations] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(operations as Record<string, { operationId?: string; parameters?: { name: string; in: string; example?: unknown }[] }>)) {
      const example = OPERATION_EXAMPLES[operation.operationId as PublicRouteId];
      if (!example || !operation.parameters) continue;
      const url = new URL(example.request.path, 'http://example');
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const values = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}$`).exec(url.pathname)?.slice(1) ?? [];
      const pathValues = new Map(names.map((name, i) => [name, decodeURIComponent(values[i] ?? '')]));
      for (const parameter of operation.parameters) {
        const value = parameter.in === 'path' ? pathValues.get(parameter.name) : parameter.in === 'query' ? url.searchParams.get(parameter.name) : undefined;
        if (value) parameter.example = value;
      }
    }
  }
}

/**
 * The OpenAPI 3.1 document of the API, from the route manifest, the zod schemas each handler validates and those it
 * answers with (see loadRouteSchemas): nothing here is written twice.
 *
 * @example
 * const document = buildOpenApiDocument(await loadRouteSchemas(), { serverUrl: 'http://localhost:4010' });
 */
export function buildOpenApiDocument(routeSchemas: Record<RouteId, OperationSchemas>, { serverUrl }: { serverUrl: string }): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  // In the order the operations are described (the manifest's own exports are sorted by id).
  const publicIds = Object.keys(OPERATION_DESCRIPTIONS) as PublicRouteId[];
  for (const id of publicIds) {
    const route: RouteDefinition = routes[id];
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(id, route, routeSchemas[id]) };
  }
  const usedTags = new Set(publicIds.map((id) => tagOf(routes[id].path)));
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'svc payments API',
      version: '1.0.0',
      description: 'Payment sessions, a hosted checkout, stored cards and signed webhooks. Amounts are integers in minor units. Every error has one shape (Error); branch on `code`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl, description: serverUrl === '/' ? 'The origin that serves this document (the sandbox, or a deployed stage).' : undefined }],
    tags: [...TAGS.filter((t) => usedTags.has(t.name)).map(({ name, description }) => ({ name, description })), EVENTS_TAG],
    components: {
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'Server side only: sk_test_... or sk_live_...; read-only rk_ keys reach read operations.' },
        publishableKey: { type: 'http', scheme: 'bearer', description: 'Optional on checkout operations: pk_test_... or pk_live_... of the session merchant and mode. The session reference authorises the call.' },
        webhookSignature: { type: 'apiKey', in: 'header', name: 'Svc-Signature', description: 'On the events we send you: t=<unix seconds>,v1=<HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret>. Check it before trusting a delivery.' },
      },
    },
    paths,
    webhooks: webhooksSection(),
  });
  addParameterExamples(document);
  return document;
}

/**
 * The document GET /v1/openapi.json serves (shared/openapi/served-document.ts): its server is '/', so the sandbox and
 * every stage describe the origin that serves them.
 */
export async function servedOpenApiDocument(): Promise<ReturnType<typeof createDocument>> {
  return buildOpenApiDocument(await loadRouteSchemas(), { serverUrl: '/' });
}
