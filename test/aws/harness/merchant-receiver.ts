import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The receiver's public name, and the public address (RFC 5737 documentation ranges are not public) it resolves to. */
export const RECEIVER_HOST = 'hooks.merchant.example';
const RECEIVER_PUBLIC_ADDRESS = '93.184.215.14';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  /** What the receiver answered. */
  status: number;
  /** When it arrived (epoch ms). */
  at: number;
}

export interface MerchantReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers the next requests with these statuses (an outage), then 200 again. */
  failNext(...statuses: number[]): void;
  /** Answers every request with `status` until `up()`: a receiver that stays down (after any failNext statuses). */
  down(status: number): void;
  up(): void;
  /** Node options for a function's runtime process: the preload that is this receiver's piece of the Internet. */
  nodeArgs: string[];
  /** The receiver's certificate authority, for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  close(): Promise<void>;
}

/**
 * A merchant's webhook receiver on https://hooks.merchant.example, reachable from the functions as from Lambda: the
 * sender's own checks run unchanged (https only, the name resolving to a public address, TLS verified against a CA
 * the function trusts through NODE_EXTRA_CA_CERTS). The preload is the harness's network, not a change to the bundle:
 * the name resolves to a public address, and connections to it reach this server on loopback.
 */
export async function startMerchantReceiver(): Promise<MerchantReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'aws-harness-receiver-'));
  chmodSync(dir, 0o755);
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${RECEIVER_HOST}`, '-addext', `subjectAltName=DNS:${RECEIVER_HOST}`], { stdio: 'ignore' });
  chmodSync(cert, 0o644);
  const received: ReceivedWebhook[] = [];
  const queued: number[] = [];
  let outage: number | undefined;
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = queued.shift() ?? outage ?? 200;
      received.push({ path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'), status, at: Date.now() });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const preload = join(dir, 'network.mjs');
  writeFileSync(preload, networkPreload(port));
  chmodSync(preload, 0o644);
  return {
    url: `https://${RECEIVER_HOST}`,
    received,
    failNext: (...statuses) => queued.push(...statuses),
    down: (status) => (outage = status),
    up: () => (outage = undefined),
    nodeArgs: [`--import=${preload}`],
    caFile: cert,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** DNS for the receiver's name, and routing from its public address to the local port. */
function networkPreload(port: number): string {
  return `
import dns from 'node:dns';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
const HOST = ${JSON.stringify(RECEIVER_HOST)};
const PUBLIC = ${JSON.stringify(RECEIVER_PUBLIC_ADDRESS)};
const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  if (typeof options === 'function') [callback, options] = [options, {}];
  if (hostname !== HOST) return lookup.call(this, hostname, options, callback);
  const all = typeof options === 'object' && options?.all;
  process.nextTick(() => (all ? callback(null, [{ address: PUBLIC, family: 4 }]) : callback(null, PUBLIC, 4)));
};
syncBuiltinESMExports();
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = args[0];
  if (options && typeof options === 'object' && !Array.isArray(options) && options.host === HOST) {
    const resolve = options.lookup ?? dns.lookup;
    const toLocal = (address) => (address === PUBLIC ? '127.0.0.1' : address);
    args[0] = {
      ...options,
      port: ${port},
      lookup: (hostname, lookupOptions, callback) =>
        resolve(hostname, lookupOptions, (error, address, family) => {
          if (error) return callback(error);
          if (Array.isArray(address)) return callback(null, address.map((a) => ({ ...a, address: toLocal(a.address) })));
          callback(null, toLocal(address), family);
        }),
    };
  }
  return connect.apply(this, args);
};
`;
}
