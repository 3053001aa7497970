/**
 * An example merchant server: it creates a payment session for an order, sends the buyer to the checkout, and ships
 * the order when the signed charge.approved webhook arrives. It uses only the SDK (shared/client/index.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { parseWebhookEvent, SvcApiError, WebhookSignatureError, type SvcClient } from '../../shared/client/index.ts';
import { OrderBook } from './orders.ts';

export interface MerchantServerOptions {
  svc: SvcClient;
  /** The whsec_... of the endpoint registered for this server (see registerWebhookEndpoint). */
  webhookSecret: () => string;
  /** Where the buyer lands after paying. */
  returnUrl?: string;
  port?: number;
  /** For the signature's freshness check; the sandbox can move its clock, so the tests pass the sandbox's. */
  now?: () => number;
}

export interface MerchantServer {
  url: string;
  orders: OrderBook;
  close(): Promise<void>;
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

export async function startMerchantServer({ svc, webhookSecret, returnUrl, port = 0, now = Date.now }: MerchantServerOptions): Promise<MerchantServer> {
  const orders = new OrderBook();

  /** POST /orders/{id}/pay?amountMinor=1050: one session per order (the Idempotency-Key), then 303 to the checkout. */
  async function pay(res: ServerResponse, orderId: string, amountMinor: number) {
    const order = orders.open(orderId, amountMinor);
    try {
      const session = await svc.sessions.create(
        { amountMinor: order.amountMinor, currency: 'VES', description: `Order ${order.id}`, customerRef: `customer-of-${order.id}`, maxFailures: 2, returnUrl },
        { idempotencyKey: `order-${order.id}` },
      );
      orders.attachSession(order.id, session.reference);
      res.writeHead(303, { Location: session.checkoutUrl }).end();
    } catch (error) {
      if (!(error instanceof SvcApiError)) throw error;
      json(res, 502, { error: `payment provider refused: ${error.code}` });
    }
  }

  /** POST /webhooks: verify on the raw body, answer fast, act once per event id. */
  function webhook(res: ServerResponse, rawBody: Buffer, signature: string | string[] | undefined): void {
    let event;
    try {
      event = parseWebhookEvent({ rawBody, header: signature, secret: webhookSecret(), now: now() });
    } catch (error) {
      if (error instanceof WebhookSignatureError) return json(res, 400, { error: error.reason });
      throw error;
    }
    // Samples from the endpoint test look real but are not payments: never ship on them.
    if (orders.firstTimeSeen(event.id) && event.type === 'charge.approved' && event.data.sample !== true) {
      orders.fulfil(String(event.data.sessionReference));
    }
    res.writeHead(204).end();
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://merchant');
    const orderPath = /^\/orders\/([\w-]{1,64})(\/pay)?$/.exec(url.pathname);
    readRaw(req)
      .then((rawBody) => {
        if (req.method === 'POST' && url.pathname === '/webhooks') return webhook(res, rawBody, req.headers['svc-signature']);
        if (req.method === 'POST' && orderPath?.[2]) return pay(res, orderPath[1]!, Number(url.searchParams.get('amountMinor') ?? 1050));
        if (req.method === 'GET' && orderPath && !orderPath[2]) {
          const order = orders.get(orderPath[1]!);
          return order ? json(res, 200, order) : json(res, 404, { error: 'no such order' });
        }
        json(res, 404, { error: 'not found' });
      })
      .catch(() => json(res, 500, { error: 'internal error' }));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${bound}`, orders, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Registers this server's /webhooks with the API and returns the signing secret, which the API shows only now.
 * In production you register once (dashboard or API) and keep the secret in your secret store.
 */
/** What the shop keeps of its endpoint between runs: the secret is shown only when the endpoint is created. */
interface SavedEndpoint {
  id: string;
  url: string;
  secret: string;
}

/**
 * The shop's webhook endpoint and its signing secret. With `stateFile`, an endpoint saved there by an earlier run is
 * reused while it still exists with the same URL (the API shows a secret only once, so the file keeps it, mode 0600);
 * otherwise a new one is registered and saved, so restarting the shop never piles up endpoints (16 per mode at most).
 */
export async function registerWebhookEndpoint(svc: SvcClient, serverUrl: string, { stateFile }: { stateFile?: string } = {}): Promise<string> {
  const url = `${serverUrl}/webhooks`;
  const saved = stateFile ? readSaved(stateFile) : null;
  if (saved?.url === url) {
    try {
      const current = await svc.webhookEndpoints.get(saved.id);
      if (current.url === url && current.status === 'enabled') return saved.secret;
    } catch (error) {
      if (!(error instanceof SvcApiError && error.status === 404)) throw error;
    }
  }
  const endpoint = await svc.webhookEndpoints.create({ url, enabledEvents: ['charge.approved', 'charge.declined', 'session.expired'], description: 'example merchant server' });
  if (stateFile) {
    mkdirSync(dirname(stateFile), { recursive: true });
    writeFileSync(stateFile, JSON.stringify({ id: endpoint.id, url, secret: endpoint.secret } satisfies SavedEndpoint), { mode: 0o600 });
  }
  return endpoint.secret;
}

function readSaved(stateFile: string): SavedEndpoint | null {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8')) as SavedEndpoint;
  } catch {
    return null;
  }
}
