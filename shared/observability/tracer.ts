/**
 * The process's Powertools tracer: X-Ray subsegments per invocation with cold-start and service annotations. It
 * records nothing outside Lambda (the sandbox, tests). Responses are never captured: some carry a secret shown
 * once (a webhook endpoint's signing secret).
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './metrics.ts';

let tracer: Tracer | undefined;

/**
 * @example
 * middy().use(captureLambdaHandler(processTracer(), { captureResponse: false }));
 */
export function processTracer(): Tracer {
  tracer ??= new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });
  return tracer;
}
