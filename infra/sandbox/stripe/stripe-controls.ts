/**
 * Sandbox-only control of the Stripe simulator, on the sandbox's own origin beside the bank's (bank-controls.ts): a
 * developer running `npm start` makes Stripe fail the next requests of one operation, to see a charge left pending and
 * reconciled, or an expire answered 503, without a test harness.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import * as z from 'zod';
import { errorBody, jsonResponse } from '../../../shared/http/response.ts';
import type { StripeFault, StripeSimulator } from './stripe-simulator.ts';

export const STRIPE_FAULTS_PATH = '/__sandbox/stripe/faults';

const OPERATIONS = ['create_intent', 'read_intent', 'search_intents', 'confirm', 'capture', 'cancel', 'create_refund', 'list_refunds', 'read_refund'] as const satisfies readonly StripeFault['operation'][];
const EFFECTS: Record<StripeFault['kind'], string> = {
  server_error: 'answers 500 api_error and does nothing',
  delay: 'is done, and its answer is held for 60 s, past the connector\'s deadline',
  drop: 'is done, and its connection is cut before the answer',
};

const FaultSchema = z
  .object({
    operation: z.enum(OPERATIONS, { error: `operation must be one of ${OPERATIONS.join(', ')}.` }),
    kind: z.enum(['server_error', 'delay', 'drop'], { error: 'kind must be server_error, delay or drop.' }),
    times: z.number({ error: 'times must be a whole number from 1 to 100.' }).int({ error: 'times must be a whole number from 1 to 100.' }).min(1).max(100).optional(),
  })
  .strict();

/**
 * POST /__sandbox/stripe/faults {"operation": "confirm", "kind": "delay", "times": 1}.
 *
 * @example
 * injectStripeFault(sandbox.stripe, Buffer.from('{"operation":"cancel","kind":"server_error","times":3}'))
 */
export function injectStripeFault(stripe: Pick<StripeSimulator, 'injectFault'>, body: Buffer): APIGatewayProxyResult {
  let input: unknown;
  try {
    input = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    return jsonResponse(400, errorBody(400, 'invalid_json', 'The request body is not valid JSON.'));
  }
  const parsed = FaultSchema.safeParse(input);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const field = issue!.code === 'unrecognized_keys' ? issue!.keys[0]! : issue!.path.join('.') || 'body';
    return jsonResponse(400, errorBody(400, 'parameter_invalid', issue!.code === 'unrecognized_keys' ? `${field} is not a field of a fault.` : issue!.message, field));
  }
  const fault = { times: 1, ...parsed.data };
  stripe.injectFault(fault);
  return jsonResponse(200, { ...fault, effect: `The next ${fault.times} ${fault.operation} request(s) to Stripe: each ${EFFECTS[fault.kind]}.` });
}
