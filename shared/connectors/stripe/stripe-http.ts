/**
 * The HTTP leg to Stripe: form-encoded bodies, HTTP Basic with the secret key, the pinned Stripe-Version, an
 * Idempotency-Key on every POST, a deadline per call. Errors say whether Stripe may have acted (timeout) or surely
 * did not answer (refused or dropped connection). Redirects are never followed (refusedRedirect).
 */
import { refusedRedirect } from '../../gateways/bank-http.ts';
import { GatewayTimeoutError, GatewayUnavailableError } from '../../gateways/payment-gateway.ts';
import { traceOutbound } from '../../observability/outbound-trace.ts';
import { policies } from '../../retry/policies.ts';
import { retry } from '../../retry/retry.ts';
import { formEncode, STRIPE_API_VERSION } from './wire.ts';

export interface StripeCall {
  method: 'GET' | 'POST';
  /** The API path, /v1/... */
  path: string;
  /** POST: the form body; GET: the query string. */
  params?: object;
  /** Required on POST: a repeat with the same key is answered from Stripe's record, never done twice. */
  idempotencyKey?: string;
  secretKey: string;
  /** Repeats after a network error, a timeout or a 5xx: reads, and POSTs whose repeat Stripe deduplicates. */
  retries?: number;
}

export interface StripeReply {
  status: number;
  body: Record<string, unknown>;
  /** Stripe's Idempotent-Replayed header: the answer is the stored one of the key's first request. */
  replayed: boolean;
}

export type StripeTransport = (call: StripeCall) => Promise<StripeReply>;

/**
 * @example
 * const stripe = stripeTransport({ baseUrl: 'https://api.stripe.com', timeoutMs: 8000 });
 * const reply = await stripe({ method: 'GET', path: '/v1/payment_intents/pi_123', secretKey: 'sk_test_...' });
 */
export function stripeTransport(options: { baseUrl: string; timeoutMs: number }): StripeTransport {
  const root = options.baseUrl.replace(/\/+$/, '');
  const once = async (call: StripeCall): Promise<StripeReply> => {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Basic ${Buffer.from(`${call.secretKey}:`).toString('base64')}`,
      'stripe-version': STRIPE_API_VERSION,
    };
    let url = `${root}${call.path}`;
    let body: string | undefined;
    if (call.method === 'POST') {
      if (!call.idempotencyKey) throw new Error(`POST ${call.path} needs an Idempotency-Key.`);
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['idempotency-key'] = call.idempotencyKey;
      body = formEncode(call.params ?? {});
    } else if (call.params) {
      url += `?${formEncode(call.params)}`;
    }
    let response: Response;
    try {
      response = await fetch(url, { method: call.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new GatewayTimeoutError(`Stripe did not answer ${call.method} ${call.path} within ${options.timeoutMs} ms.`, { cause: error });
      }
      throw new GatewayUnavailableError(`Stripe could not be reached (${call.method} ${call.path}).`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      // Headers came but the body was cut off: as unknown as a timeout, since Stripe did act on the request.
      throw new GatewayTimeoutError(`Stripe's answer to ${call.method} ${call.path} was cut off.`, { cause: error });
    }
    let parsed: Record<string, unknown> = {};
    try {
      const value: unknown = text ? JSON.parse(text) : {};
      if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
    } catch {
      // A non-JSON answer (a proxy's HTML error page) is judged by its status alone.
    }
    return { status: response.status, body: parsed, replayed: response.headers.get('idempotent-replayed') === 'true' };
  };

  // Each attempt is its own subsegment, the path naming the operation; a GET's parameters are not recorded.
  const traced = (call: StripeCall) =>
    traceOutbound({ peer: 'stripe', method: call.method, url: `${root}${call.path}`, recordPath: true }, () => once(call), (reply) => reply.status).then(refusedRedirect);
  return (call) =>
    retry({ ...policies.bankCall, maxAttempts: 1 + (call.retries ?? 0) }, () => traced(call), {
      // Only a call Stripe surely never received; a timeout may have been acted on.
      isRetryable: (error) => error instanceof GatewayUnavailableError,
      retryResult: (reply) => reply.status >= 500,
    });
}
