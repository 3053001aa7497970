/**
 * X-Ray subsegments for the calls that leave AWS: a connector's HTTP call to its bank or processor, and the POST to a
 * merchant (webhooks and their token requests). Nothing else in a function is traced by our code: Lambda's active
 * tracing records the invocation (its Initialization and Invocation) without any SDK in the function, and API
 * Gateway's segment records each answer's status. The calls that leave AWS are where a slow or failing request's
 * time goes that no AWS service records (docs/runbook.md, Traces).
 */
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './metrics.ts';

export interface OutboundCall {
  /** Who is called, annotated so traces can be searched by it: a connector id, or `merchant`. */
  peer: string;
  method: string;
  url: string;
  /** Whether the URL's path may be recorded: a bank's API paths may; a merchant's may hold a secret token. */
  recordPath: boolean;
}

type Subsegment = ReturnType<NonNullable<ReturnType<Tracer['getSegment']>>['addNewSubsegment']>;

let loading: Promise<Tracer | undefined> | undefined;

/**
 * The Powertools tracer, imported (from the Powertools layer) by the first traced call of the container, so that no
 * function pays the X-Ray SDK's import (about 30 ms of CPU) at init, and those that never call out never pay it.
 * Outside Lambda (the sandbox, tests) nothing is loaded: the SDK's async hook would track every promise of the
 * process, for traces nobody receives.
 */
function outboundTracer(): Promise<Tracer | undefined> {
  loading ??= process.env.AWS_EXECUTION_ENV
    ? import('@aws-lambda-powertools/tracer').then(
        ({ Tracer }) => {
          const tracer = new Tracer({ serviceName: SERVICE_NAME, captureHTTPsRequests: false });
          return tracer.isTracingEnabled() ? tracer : undefined;
        },
        (error: unknown) => {
          // A trace is never worth a failed payment: the call goes out untraced, and the log says why.
          console.error('The X-Ray tracer could not be loaded; outbound calls go untraced.', error);
          return undefined;
        },
      )
    : Promise.resolve(undefined);
  return loading;
}

/** X-Ray's reading of an answer, as its own HTTP instrumentation records one: the caller's error or the peer's fault. */
function recordStatus(subsegment: Subsegment, status: number): void {
  subsegment.addAnnotation('status', status);
  if (status === 429) subsegment.addThrottleFlag();
  if (status >= 400 && status < 500) subsegment.addErrorFlag();
  else if (status >= 500) subsegment.addFaultFlag();
}

/**
 * Runs `send` inside a remote subsegment named after the host: method, URL (without query) and status, the peer
 * and status as annotations. A 4xx is an `error` (our request was refused), a 5xx, a timeout or a network error a
 * `fault`. Neither bodies nor headers are recorded: they carry card data and credentials.
 *
 * @example
 * const reply = await traceOutbound({ peer: 'mercantil', method: 'POST', url, recordPath: true }, () => once(call), (r) => r.status);
 */
export async function traceOutbound<T>(call: OutboundCall, send: () => Promise<T>, statusOf: (reply: T) => number): Promise<T> {
  const tracer = await outboundTracer();
  const url = tracer && URL.parse(call.url);
  const subsegment = url ? tracer.getSegment()?.addNewSubsegment(url.host) : undefined;
  if (!url || !subsegment) return send();
  subsegment.addAttribute('namespace', 'remote');
  subsegment.addAnnotation('peer', call.peer);
  const http: { request: { method: string; url: string }; response?: { status: number } } = {
    request: { method: call.method, url: `${url.origin}${call.recordPath ? url.pathname : ''}` },
  };
  subsegment.addAttribute('http', http);
  try {
    const reply = await send();
    http.response = { status: statusOf(reply) };
    recordStatus(subsegment, http.response.status);
    return reply;
  } catch (error) {
    subsegment.addError(error as Error, true);
    throw error;
  } finally {
    subsegment.close();
  }
}
