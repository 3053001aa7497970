import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { loadRouteSchemas } from '../../shared/openapi/load-route-schemas.ts';
import { routes, type RouteDefinition, type RouteId } from '../../shared/routes.ts';

/** Property names that hold card data in a request body, at any depth; a pago móvil payment key is handled as a CVV. */
const CARD_FIELDS = /^(number|cardNumber|pan|cvv|cvc|key)$/i;

/** Card-like property names anywhere in the body's JSON Schema (nested objects and $defs included). */
function cardFieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const found: string[] = [];
  const walk = (json: unknown) => {
    if (!json || typeof json !== 'object') return;
    for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
      if (key === 'properties' && value && typeof value === 'object') found.push(...Object.keys(value).filter((name) => CARD_FIELDS.test(name)));
      walk(value);
    }
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return found;
}

describe('routes that carry card data', () => {
  it('are exactly the routes whose body schema has a card field, and each has the keyed fingerprinter', async () => {
    const schemas = await loadRouteSchemas();
    const byBody = (Object.keys(routes) as RouteId[]).filter((id) => cardFieldsOf(schemas[id].body as z.ZodType | undefined).length > 0);
    const byManifest = (Object.keys(routes) as RouteId[]).filter((id) => (routes[id] as RouteDefinition).cardData);
    expect(byBody).toEqual(['createCheckoutCharge', 'createPagoMovilCharge', 'confirmCheckoutOtp']);
    expect(byManifest).toEqual(byBody);
    for (const id of byManifest) expect((routes[id] as RouteDefinition).needs).toContain('fingerprints');
  });
});
