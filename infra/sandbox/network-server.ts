/**
 * The HTTP side every payment-network simulator of the sandbox shares (the reference bank, Banco Mercantil, Stripe):
 * JSON answers, answers held past any connector's deadline (a timeout, the work still done), and a close that ends
 * held answers too, so a test run never waits for them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long a held answer waits: longer than any connector deadline, short enough to end. */
export const HOLD_PAST_DEADLINE_MS = 60_000;

export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Delays the answer to `res` past the caller's deadline. */
export type HoldAnswer = (res: ServerResponse) => Promise<void>;

export interface NetworkServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a simulator's server. `handle` answers with a JsonReply, or null when it ended the connection itself (a
 * dropped connection); a handler that throws answers 500.
 *
 * @example
 * const server = await startNetworkServer(async (req, res, hold) => ({ status: 200, body: { ok: true } }));
 */
export async function startNetworkServer(
  handle: (req: IncomingMessage, res: ServerResponse, hold: HoldAnswer) => Promise<JsonReply | null>,
  { host = '127.0.0.1', port = 0 }: { host?: string; port?: number } = {},
): Promise<NetworkServer> {
  const held = new Set<ServerResponse>();
  const hold: HoldAnswer = async (res) => {
    held.add(res);
    await new Promise((r) => setTimeout(r, HOLD_PAST_DEADLINE_MS).unref());
    held.delete(res);
  };
  const server = createServer((req, res) => {
    handle(req, res, hold)
      .then((reply) => {
        if (!reply || res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body));
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
