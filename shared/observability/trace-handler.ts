import type { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj, Request } from '@middy/core';

/** The part of an X-Ray subsegment this needs: the 4xx flag. */
interface FlaggableSegment {
  addErrorFlag(): void;
}

type HttpRequest = Request<unknown, { statusCode?: number } | undefined>;

/** The status the API answered with: errorResponse has already turned the thrown error into the response. */
const answeredStatus = (request: HttpRequest): number | undefined =>
  request.response?.statusCode ?? (request.error as { statusCode?: unknown } | null)?.statusCode as number | undefined;

/**
 * Powertools' handler subsegment (captureLambdaHandler, responses not captured), with a client error recorded as X-Ray
 * records one: a 4xx answer marks the subsegment `error`, never `fault`. Powertools records every thrown error as
 * a fault, so a 401 for a wrong key would page as a failure of the service and hide real faults in the trace map.
 * Register it before errorResponse, so that its onError runs after and sees the answer.
 *
 * @example
 * middy().use(traceHandler(processTracer())).use(errorResponse(logger));
 */
export function traceHandler(tracer: Tracer): MiddlewareObj {
  const inner = captureLambdaHandler(tracer, { captureResponse: false });
  const flagClientError = (request: HttpRequest) => {
    const status = answeredStatus(request);
    if (tracer.isTracingEnabled() && status !== undefined && status >= 400 && status < 500) (tracer.getSegment() as FlaggableSegment | undefined)?.addErrorFlag();
    return status;
  };
  return {
    before: inner.before,
    after: (request) => {
      flagClientError(request as HttpRequest);
      return inner.after?.(request);
    },
    onError: (request) => {
      const status = flagClientError(request as HttpRequest);
      // A client error closes the subsegment as a success would: without the error recorded as a fault.
      return status !== undefined && status < 500 ? inner.after?.(request) : inner.onError?.(request);
    },
  };
}
