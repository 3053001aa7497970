import { connect } from 'node:net';
import type { TestResponse } from './sandbox.ts';

/**
 * A request with the body as bytes and the headers exactly as given: what TestSandbox.request cannot send
 * (invalid UTF-8, a wrong Content-Type, no Content-Type at all).
 *
 * @example
 * await rawRequest(sandbox.url, 'POST', '/v1/sessions', { headers: { 'content-type': 'text/plain' }, body: Buffer.from([0xc3, 0x28]) });
 */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: Uint8Array | string } = {},
): Promise<TestResponse> {
  // Copied into a plain ArrayBuffer view: fetch's types want one, whatever buffer the caller's bytes sit in.
  const payload = body === undefined || typeof body === 'string' ? body : new Uint8Array(body);
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: method === 'GET' ? undefined : (payload as BodyInit | undefined) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A manifest path with its {parameters} filled in, each percent-encoded unless `raw`. */
export function fillPath(path: string, values: Record<string, string>, { raw = false } = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return raw ? value : encodeURIComponent(value);
  });
}

/** What came back on a socket: the status line's code, headers (names lower-cased, repeats joined), body, and how it ended. */
export interface SocketResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  /** 'end' when the server closed cleanly after its answer, 'reset' when the connection was reset. */
  ended: 'end' | 'reset';
}

/**
 * Writes the request bytes exactly as given on a TCP socket and reads the answer until the server closes it:
 * repeated headers, an oversized request line, a method fetch refuses, or a body the server stops reading.
 * The request should carry `Connection: close`.
 *
 * @example
 * await socketRequest(sandbox.url, 'GET /v1/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
 */
export function socketRequest(baseUrl: string, head: string, body?: Buffer): Promise<SocketResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended: SocketResponse['ended'] = 'end';
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(head);
      // A server that answers before reading everything may close mid-body: a failed write is not a failed test.
      if (body) socket.write(body, () => undefined);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') ended = 'reset';
      else reject(error);
    });
    socket.setTimeout(60_000, () => socket.destroy(new Error('no answer within 60 s')));
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = (split >= 0 ? raw.slice(0, split) : raw).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim() : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
      }
      let text = split >= 0 ? raw.slice(split + 4) : '';
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) text = unchunk(text);
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: parsed, text, ended });
    });
  });
}

function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
