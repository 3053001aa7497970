import examples from './examples.json' with { type: 'json' };
import type { PublicRouteId } from './operation-descriptions.ts';

/** One exchange with the sandbox: a request as sent and the answer it got. */
export interface OperationExample {
  request: { method: string; path: string; idempotencyKey?: string; body?: unknown };
  /** body is absent for answers that are not JSON (the logo's image). */
  response: { status: number; body?: unknown };
}

/**
 * The example request and answer of every public operation, recorded from a real sandbox by test/openapi's example
 * scenario (`npm run openapi:examples`) with its ids and times made stable, and replayed by the same test: an example
 * here was a real answer to exactly that request.
 */
export const OPERATION_EXAMPLES = examples as Partial<Record<PublicRouteId, OperationExample>>;
