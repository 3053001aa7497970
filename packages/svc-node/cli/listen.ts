import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SvcClient } from '../../../shared/client/index.ts';

export const LISTEN_DESCRIPTION = 'svc listen';
/** Secrets of the endpoints this machine registered, by API and endpoint id: the API shows a secret only once. */
const SECRETS_FILE = join(process.env.SVC_CONFIG_DIR ?? join(homedir(), '.config', 'svc'), 'listen-secrets.json');

/**
 * Starts a relay on 127.0.0.1, points the "svc listen" endpoint at it (registering one the first time) and forwards
 * each delivery's raw body and Svc-Signature untouched, answering the API with the receiver's status (so a failing
 * receiver gets the API's retries). Runs until stopped. A deployed stack only sends to public https URLs: then the
 * endpoint gets publicUrl, a tunnel (cloudflared, ngrok...) to the relay's port.
 */
export async function listen(options: { svc: SvcClient; apiUrl: string; forwardTo: string; events: string[]; port: number; publicUrl: string | undefined }) {
  const { svc, apiUrl, forwardTo, events } = options;
  const relay = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', async () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
      const signature = req.headers['svc-signature'];
      if (typeof signature === 'string') headers['svc-signature'] = signature;
      const { type, id } = describe(body);
      try {
        const answer = await fetch(forwardTo, { method: 'POST', headers, body });
        await answer.arrayBuffer();
        console.log(`${new Date().toISOString()}  ${type}  ${id}  -> ${answer.status}`);
        res.writeHead(answer.status).end();
      } catch (error) {
        console.log(`${new Date().toISOString()}  ${type}  ${id}  -> ${forwardTo} unreachable (${error instanceof Error ? error.message : error})`);
        res.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => relay.listen(options.port, '127.0.0.1', resolve));
  const address = relay.address();
  const relayUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;

  const { id, secret } = await endpointFor(svc, apiUrl, options.publicUrl ?? relayUrl, events);
  console.log(`Ready. Forwarding ${events.length ? events.join(', ') : 'all events'} to ${forwardTo} (endpoint ${id}, relay ${relayUrl})`);
  console.log(`Webhook signing secret: ${secret}`);
  const stop = () => relay.close(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

/** The "svc listen" endpoint pointed at the relay: reused when this machine knows its secret, else made anew. */
async function endpointFor(svc: SvcClient, apiUrl: string, url: string, enabledEvents: string[]) {
  const secrets = readSecrets();
  const existing = (await svc.webhookEndpoints.list({ limit: 100 })).data.find((e) => e.description === LISTEN_DESCRIPTION);
  const known = existing && secrets[`${apiUrl} ${existing.id}`];
  if (existing && known) {
    await svc.webhookEndpoints.update(existing.id, { url, enabledEvents: enabledEvents as never, status: 'enabled' });
    return { id: existing.id, secret: known };
  }
  // Registered elsewhere: its secret is not ours to read, so this machine makes its own.
  if (existing) await svc.webhookEndpoints.delete(existing.id);
  const created = await svc.webhookEndpoints.create({ url, enabledEvents: enabledEvents as never, description: LISTEN_DESCRIPTION });
  secrets[`${apiUrl} ${created.id}`] = created.secret;
  mkdirSync(dirname(SECRETS_FILE), { recursive: true });
  writeFileSync(SECRETS_FILE, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return { id: created.id, secret: created.secret };
}

function readSecrets(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(SECRETS_FILE, 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function describe(body: Buffer): { type: string; id: string } {
  try {
    const event = JSON.parse(body.toString('utf8')) as { type?: string; id?: string };
    return { type: event.type ?? '?', id: event.id ?? '?' };
  } catch {
    return { type: '(not JSON)', id: '?' };
  }
}
