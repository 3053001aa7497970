import type { ApiHandlerModule } from '../http/api-handler.ts';
import { routes, type RouteId } from '../routes.ts';
import { OPERATION_RESPONSES } from './operation-responses.ts';
import type { OperationSchemas } from './response-schemas.ts';

/**
 * Each manifest entry's schemas: its input's, read from its handler module, so that a new route is documented as
 * soon as it is in the manifest, with what it answers (operation-responses.ts). Every entry is a .ts file under
 * functions/: that fixed prefix and suffix let esbuild bundle them all into the Lambda of GET /v1/openapi.json.
 */
export async function loadRouteSchemas(): Promise<Record<RouteId, OperationSchemas>> {
  const entries = await Promise.all(
    (Object.keys(routes) as RouteId[]).map(async (id) => {
      // vite would glob only one folder deep: it leaves the import to the runtime, which resolves it like Node.
      const module = (await import(/* @vite-ignore */ `../../functions/${routes[id].entry.replace(/^functions\/|\.ts$/g, '')}.ts`)) as ApiHandlerModule;
      return [id, { ...module.schemas, responses: OPERATION_RESPONSES[id] }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<RouteId, OperationSchemas>;
}
