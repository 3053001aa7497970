/**
 * What the sandbox answers before any handler runs, as API Gateway (with its DEFAULT_4XX response, code
 * invalid_request) and its 413 answer in AWS: a request Node's parser refuses (a request line or headers over the
 * limits, a method it cannot parse) and a body over the sandbox's limit, in the API's one JSON error shape with a
 * request id. An oversized body is read to its end (up to a cap) and the connection closed cleanly, so the client
 * reads the 413 instead of a reset connection.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { reasonPhrase } from '../../shared/errors.ts';
import { requestIdFor, withRequestId } from '../../shared/http/request-id.ts';
import { errorBody, jsonResponse } from '../../shared/http/response.ts';

/** The request line and headers together, as Node's parser reads them (its own default, made explicit). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** The longest URL (path and query string) served: longer ones are 414. */
export const MAX_URL_CHARS = 8 * 1024;
/** Past the body limit the rest is read and dropped, this far, so the client finishes sending and reads the 413. */
const MAX_DISCARD_BYTES = 16 * 1024 * 1024;

type TransportStatus = 400 | 413 | 414 | 431;

/** A refusal of the request as such: invalid_request (payload_too_large for a body), and the connection closes. */
export const transportError = (statusCode: TransportStatus, message: string): APIGatewayProxyResult =>
  jsonResponse(statusCode, errorBody(statusCode, statusCode === 413 ? 'payload_too_large' : 'invalid_request', message), { Connection: 'close' });

export const tooLargeBody = (): APIGatewayProxyResult => transportError(413, 'The request body is too large.');

/** 414 for a URL the parser accepted but the sandbox does not serve. */
export function uriTooLong(req: IncomingMessage): APIGatewayProxyResult | null {
  return (req.url ?? '').length > MAX_URL_CHARS ? transportError(414, `The URL is longer than ${MAX_URL_CHARS} characters.`) : null;
}

const NO_BODY = Buffer.alloc(0);

/**
 * The body, or null when it is over `limit` bytes: the rest is still read (and dropped) up to MAX_DISCARD_BYTES, so
 * the answer reaches a client that is still sending.
 */
export function readBodyWithin(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  // Without either header HTTP/1.1 has no body (RFC 9112, 6.3): no stream to wait for on every GET.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return Promise.resolve(NO_BODY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > MAX_DISCARD_BYTES) {
        req.off('data', onData);
        resolve(null);
      }
    };
    req.on('data', onData);
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The raw HTTP/1.1 answer, for a socket that has no ServerResponse (the parser failed before one existed). */
function serialise(answer: APIGatewayProxyResult): string {
  const headers = { ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)), Connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}`);
  return `HTTP/1.1 ${answer.statusCode} ${reasonPhrase[answer.statusCode] ?? 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${answer.body}`;
}

function parserRefusal(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): APIGatewayProxyResult {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    // The request line alone over the URL limit (or not even ended within what was read) is the URL's fault.
    const lineEnd = error.rawPacket?.indexOf('\r\n') ?? -1;
    return lineEnd < 0 || lineEnd > MAX_URL_CHARS
      ? transportError(414, `The URL is longer than ${MAX_URL_CHARS} characters.`)
      : transportError(431, `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes.`);
  }
  return transportError(400, 'The request is not valid HTTP/1.1 (its method, request line or headers could not be parsed).');
}

/**
 * Answers the requests Node's HTTP parser refuses in the JSON error shape, then closes the connection, instead of
 * Node's own empty 400/431.
 *
 * @example
 * const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
 * answerParserErrors(server, docsBaseUrl);
 */
export function answerParserErrors(server: Server, docsBaseUrl: () => string): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    // A client already gone, or an answer already under way on this connection: there is nobody to answer.
    const underway = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || underway) {
      socket.destroy();
      return;
    }
    socket.end(serialise(withRequestId(parserRefusal(error), requestIdFor(randomUUID()), docsBaseUrl())));
  });
}
