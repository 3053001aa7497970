/**
 * The HTTP leg of every adapter: JSON over fetch with a deadline per call, retries only when the caller says the
 * call is safe to repeat, and errors that say whether the bank may have acted (timeout) or surely failed.
 */
import { GatewayTimeoutError, GatewayUnavailableError } from './payment-gateway.ts';

export interface BankCall {
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

const RETRY_DELAY_MS = 100;

/**
 * @example
 * const reply = await bankRequest({ method: 'GET', url: `${base}/charges/txn_1`, timeoutMs: 5000, retries: 2 });
 */
export async function bankRequest(call: BankCall): Promise<BankReply> {
  for (let attempt = 0; ; attempt++) {
    try {
      const reply = await once(call);
      if (reply.status < 500 || attempt >= (call.retries ?? 0)) return reply;
    } catch (error) {
      if (attempt >= (call.retries ?? 0)) throw error;
    }
    await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * (attempt + 1)));
  }
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
