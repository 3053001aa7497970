/**
 * The process's Powertools tracer: X-Ray subsegments per invocation with cold-start and service annotations. It
 * records nothing outside Lambda (the sandbox, tests). Responses are never captured: some carry a secret shown
 * once (a webhook endpoint's signing secret).
 */
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './metrics.ts';

/**
 * Loaded in Lambda only (the runtime sets AWS_EXECUTION_ENV, which Powertools checks too): the X-Ray SDK it
 * brings enables cls-hooked's async hook at import, which tracks every promise of the process. Outside Lambda
 * the tracer would record nothing, so the sandbox and tests do without the hook. The import is a literal, so
 * the Lambda bundle still contains it.
 */
const powertools = process.env.AWS_EXECUTION_ENV ? await import('@aws-lambda-powertools/tracer') : undefined;

/** Outside Lambda: what captureLambdaHandler asks of a tracer, answering that tracing is off, as Powertools' would. */
const TRACING_OFF = { isTracingEnabled: () => false } as Pick<Tracer, 'isTracingEnabled'> as Tracer;

let tracer: Tracer | undefined;

/**
 * @example
 * middy().use(captureLambdaHandler(processTracer(), { captureResponse: false }));
 */
export function processTracer(): Tracer {
  tracer ??= powertools ? new powertools.Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false }) : TRACING_OFF;
  return tracer;
}
