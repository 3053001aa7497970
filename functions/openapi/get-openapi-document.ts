import * as manifest from '../../shared/route-manifest.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { loadServedDocument } from '../../shared/openapi/served-document.ts';

let served: unknown;

/**
 * GET /v1/openapi.json, no key. Loaded once per process: the schemas cannot change while it runs. The server is the
 * origin that serves the document, so the sandbox and every stage describe themselves.
 */
export const { build, handler, schemas } = defineApiHandler(manifest.getOpenApiDocument, {}, async () => {
  served ??= await loadServedDocument();
  return { statusCode: 200, body: served };
});
