import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived: what a signature is checked on. */
  rawBody: string;
}

export interface TestReceiver {
  url: string;
  received: ReceivedRequest[];
  /** Answers the next requests with these statuses, in order; then 200 again. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 standing in for a merchant's webhook receiver. */
export async function startReceiver(respond?: (request: ReceivedRequest) => { status: number; body?: string } | undefined): Promise<TestReceiver> {
  const received: ReceivedRequest[] = [];
  const queued: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const custom = respond?.(request);
      const status = custom?.status ?? queued.shift() ?? 200;
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(custom?.body ?? JSON.stringify({ received: true, status }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    failNext: (...statuses) => queued.push(...statuses),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
