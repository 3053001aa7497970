/**
 * The one outbound HTTP call of the webhook sender (and of its OAuth token requests): a POST that never follows
 * redirects, gives up after a fixed time, keeps only a short excerpt of the answer, and connects only to allowed
 * addresses. The address is checked on the resolved IP inside the socket's own lookup, so a name cannot resolve
 * to a public address when checked and to a private one when connecting.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { traceOutbound } from '../observability/outbound-trace.ts';
import { isAllowedAddress } from './address-policy.ts';

export const SEND_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_CHARS = 200;

export interface HttpPostResult {
  statusCode: number;
  /** The first characters of the answer (maxResponseChars). */
  excerpt: string;
  durationMs: number;
}

export class HttpPostError extends Error {
  constructor(
    readonly reason: 'timeout' | 'forbidden_address' | 'network_error',
    message: string,
    readonly durationMs: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpPostError';
  }
}

export interface HttpPostRequest {
  headers: Record<string, string>;
  body: string;
  /** How much of the answer to keep; the delivery log keeps a short excerpt, a token request the whole token. */
  maxResponseChars?: number;
}

export type HttpPost = (url: string, request: HttpPostRequest) => Promise<HttpPostResult>;

export interface HttpPostOptions {
  /** Only the sandbox sets this: plain http and the loopback interface become reachable. */
  allowLoopback: boolean;
  timeoutMs?: number;
}

class ForbiddenAddressError extends Error {
  constructor(readonly address: string) {
    super(`Refusing to connect to ${address}: not a public address.`);
    this.name = 'ForbiddenAddressError';
  }
}

function guardedLookup(allowLoopback: boolean, protocol: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      // The sandbox's machine is reached by its own name only: another name resolving there is refused, as in AWS.
      const loopback = allowLoopback && hostname === 'localhost';
      const refused = addresses.find((a) => !isAllowedAddress(a.address, { allowLoopback: loopback, protocol }));
      if (refused) return callback(new ForbiddenAddressError(refused.address) as NodeJS.ErrnoException, '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * @example
 * const post = createHttpPost({ allowLoopback: false });
 * const { statusCode } = await post('https://merchant.example/hooks', { headers: {}, body: '{}' });
 */
export function createHttpPost({ allowLoopback, timeoutMs = SEND_TIMEOUT_MS }: HttpPostOptions): HttpPost {
  const lookups = { 'https:': guardedLookup(allowLoopback, 'https:'), 'http:': guardedLookup(allowLoopback, 'http:') };
  const post: HttpPost = (target, { headers, body, maxResponseChars = RESPONSE_EXCERPT_CHARS }) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const url = new URL(target);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // A literal IP never goes through lookup, so it is checked here.
      if (isIP(host) && !isAllowedAddress(host, { allowLoopback, protocol: url.protocol })) {
        return reject(new HttpPostError('forbidden_address', `Refusing to connect to ${host}: not a public address.`, 0));
      }
      if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) {
        return reject(new HttpPostError('forbidden_address', 'Only https URLs are allowed.', 0));
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, {
        method: 'POST',
        headers: { 'Content-Length': String(Buffer.byteLength(body)), ...headers },
        lookup: url.protocol === 'https:' ? lookups['https:'] : lookups['http:'],
        agent: false,
      });
      const timer = setTimeout(() => req.destroy(new HttpPostError('timeout', `No answer within ${timeoutMs} ms.`, elapsed())), timeoutMs);
      req.on('response', (res) => {
        let excerpt = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (excerpt.length < maxResponseChars) excerpt += chunk;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ statusCode: res.statusCode ?? 0, excerpt: excerpt.slice(0, maxResponseChars), durationMs: elapsed() });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(new HttpPostError('network_error', error.message, elapsed(), { cause: error }));
        });
      });
      req.on('error', (error) => {
        clearTimeout(timer);
        if (error instanceof HttpPostError) return reject(error);
        if (error instanceof ForbiddenAddressError) return reject(new HttpPostError('forbidden_address', error.message, elapsed(), { cause: error }));
        reject(new HttpPostError('network_error', error.message, elapsed(), { cause: error }));
      });
      req.end(body);
    });
  // The merchant's host only: a webhook URL's path may be its secret.
  return (target, request) => traceOutbound({ peer: 'merchant', method: 'POST', url: target, recordPath: false }, () => post(target, request), (r) => r.statusCode);
}
