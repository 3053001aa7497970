/**
 * The HTTP leg of every adapter: JSON over fetch with a deadline per call, retries only when the caller says the
 * call is safe to repeat, and errors that say whether the bank may have acted (timeout) or surely failed. Redirects
 * are never followed (refusedRedirect).
 */
import type { ConnectorId } from '../connectors/profiles.ts';
import { traceOutbound } from '../observability/outbound-trace.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { GatewayTimeoutError, GatewayUnavailableError } from './payment-gateway.ts';

export interface BankCall {
  /** The connector calling: each attempt is traced as an X-Ray subsegment annotated with it. */
  connector: ConnectorId;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  /** The network's own authentication and other headers; JSON content headers are added here. */
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Repeats after a network error, a timeout or a 5xx; only for reads and idempotent operations. */
  retries?: number;
}

export interface BankReply {
  status: number;
  body: Record<string, unknown>;
}

/**
 * @example
 * const reply = await bankRequest({ connector: 'svc_reference', method: 'GET', url: `${base}/charges/txn_1`, timeoutMs: 5000, retries: 2 });
 */
export function bankRequest(call: BankCall): Promise<BankReply> {
  const traced = () => traceOutbound({ peer: call.connector, method: call.method, url: call.url, recordPath: true }, () => once(call), (reply) => reply.status).then(refusedRedirect);
  return retry({ ...policies.bankCall, maxAttempts: 1 + (call.retries ?? 0) }, traced, {
    isRetryable: () => true,
    retryResult: (reply) => reply.status >= 500,
  });
}

/** What a 3xx is answered as: the status of a gateway that got no usable answer from upstream. */
export const REDIRECT_ANSWERED_AS = 502;

/**
 * A payment network never redirects its API, so a 3xx (a hijacked DNS name, a misconfigured proxy, a captive portal)
 * is a failure of the network: fetch is told not to follow it (the card would go to the Location), and it is
 * answered to the caller as a 502 with no body, so every caller's 5xx rule applies (a status read settles a charge
 * that may have happened). The trace records the 3xx itself.
 *
 * @example
 * refusedRedirect({ status: 307, body: {} }) // { status: 502, body: {} }
 */
export function refusedRedirect<R extends { status: number; body: Record<string, unknown> }>(reply: R): R {
  return reply.status >= 300 && reply.status < 400 ? { ...reply, status: REDIRECT_ANSWERED_AS, body: {} } : reply;
}

async function once(call: BankCall): Promise<BankReply> {
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(call.timeoutMs),
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new GatewayTimeoutError(`The bank did not answer ${call.method} ${new URL(call.url).pathname} within ${call.timeoutMs} ms.`, { cause: error });
    }
    throw new GatewayUnavailableError(`The bank could not be reached (${call.method} ${new URL(call.url).pathname}).`, { cause: error });
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // A non-JSON answer (an HTML error page) is judged by its status alone.
  }
  return { status: response.status, body };
}
