import * as z from 'zod';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { loadRouteSchemas } from '../../shared/openapi/load-route-schemas.ts';
import { buildOpenApiDocument } from '../../shared/openapi/openapi-document.ts';

const OpenApiDocumentSchema = z.looseObject({ openapi: z.literal('3.1.0') }).meta({ id: 'OpenApiDocument', description: 'This document.' });

let built: ReturnType<typeof buildOpenApiDocument> | undefined;

/**
 * GET /v1/openapi.json, no key. Built once per process: the schemas cannot change while it runs. The server is the
 * origin that serves the document, so the sandbox and every stage describe themselves.
 */
export const { build, handler, schemas, parts } = defineApiHandler('getOpenApiDocument', { responses: { success: { 200: OpenApiDocumentSchema } } }, async () => {
  built ??= buildOpenApiDocument(await loadRouteSchemas(), { serverUrl: '/' });
  return { statusCode: 200, body: built };
});
