import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseWebhookEvent, WebhookSignatureError, type WebhookEvent } from '../../shared/client/index.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
/** Built into a folder of this run's own: test/sdk rebuilds packages/svc-node/dist meanwhile. */
const OUT = mkdtempSync(join(tmpdir(), 'svc-cli-build-'));
const CLI = join(OUT, 'cli.mjs');
/** The system's Node.js 20, as a developer's `npx svc` would run the built bin. */
const PLAIN_NODE = '/usr/bin/node';

/** svc listen relays the sandbox's signed deliveries to a local receiver; svc trigger makes each event for real. */
describe('the svc CLI against the sandbox', () => {
  let sandbox: TestSandbox;
  let receiver: Server;
  let listener: ChildProcess;
  let listenOutput = '';
  let env: NodeJS.ProcessEnv;
  const received: { event?: WebhookEvent; rejected?: string }[] = [];
  let secret = '';

  beforeAll(async () => {
    await run('npm', ['run', 'build:sdk'], { cwd: repo, env: { ...process.env, SVC_SDK_OUT: OUT } });
    sandbox = await startTestSandbox();
    const { keys } = await sandbox.newMerchant();
    env = { PATH: process.env.PATH, SVC_SECRET_KEY: keys.secretTest, SVC_URL: sandbox.url, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-config-')) };
    // The merchant's receiver: verifies every body it gets with the secret listen printed.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        try {
          received.push({ event: parseWebhookEvent({ rawBody: Buffer.concat(chunks), header: req.headers['svc-signature'], secret }) });
          res.writeHead(204).end();
        } catch (error) {
          received.push({ rejected: error instanceof WebhookSignatureError ? error.reason : String(error) });
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    const port = (receiver.address() as { port: number }).port;
    listener = spawn(PLAIN_NODE, [CLI, 'listen', '--forward-to', `http://127.0.0.1:${port}/webhooks`], { env });
    listener.stdout!.on('data', (chunk: Buffer) => (listenOutput += chunk.toString()));
    listener.stderr!.on('data', (chunk: Buffer) => (listenOutput += chunk.toString()));
    await vi.waitFor(() => expect(listenOutput).toMatch(/Webhook signing secret: whsec_\S+/), { timeout: 60_000, interval: 200 });
    secret = /Webhook signing secret: (whsec_\S+)/.exec(listenOutput)![1]!;
  }, 300_000);
  afterAll(async () => {
    listener?.kill('SIGTERM');
    await new Promise<void>((ok) => (receiver ? receiver.close(() => ok()) : ok()));
    await sandbox?.stop();
  });

  const triggered = ['charge.approved', 'charge.declined', 'charge.failed', 'session.expired', 'charge.refunded', 'card.stored', 'card.deleted', 'webhook.test'];
  for (const type of triggered) {
    it(`trigger ${type}: the event reaches the receiver through listen, signed, and listen prints it`, async () => {
      const before = received.length;
      const { stdout } = await run(PLAIN_NODE, [CLI, 'trigger', type], { env, timeout: 120_000 });
      expect(stdout).toContain(`Triggered ${type}`);
      const ofThisTrigger = () => received.slice(before).filter((r) => r.event?.type === type);
      await expect.poll(() => ofThisTrigger().length, { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
      const event = ofThisTrigger()[0]!.event!;
      // Real objects, not samples, except the endpoint test which is one by definition.
      expect((event.data as { sample?: boolean }).sample === true).toBe(type === 'webhook.test');
      await expect.poll(() => listenOutput, { timeout: 30_000, interval: 250 }).toContain(`${type}  ${event.id}  -> 204`);
      expect(received.filter((r) => r.rejected)).toEqual([]);
    }, 180_000);
  }

  it('a second listen reuses the endpoint and its secret, and registers --public-url (the tunnel of a deployed stack)', async () => {
    // A port of the machine that is free now: the relay takes it, and the "public" URL names it.
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((ok) => probe.close(() => ok()));
    const publicUrl = `http://127.0.0.1:${port}/`;
    const second = spawn(PLAIN_NODE, [CLI, 'listen', '--forward-to', 'http://127.0.0.1:9/none', '--port', String(port), '--public-url', publicUrl], { env });
    let output = '';
    second.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 60_000, interval: 200 }).toMatch(/Webhook signing secret/);
      expect(output).toContain(`Webhook signing secret: ${secret}`);
      const endpoints = (await sandbox.request('GET', '/v1/webhooks/endpoints?limit=100', { key: env.SVC_SECRET_KEY })).body.data;
      const ours = endpoints.filter((e: { description: string | null }) => e.description === 'svc listen');
      expect(ours).toHaveLength(1);
      expect(ours[0].url).toBe(publicUrl);
      expect(output).toContain(`relay http://127.0.0.1:${port}/`);
    } finally {
      second.kill('SIGTERM');
    }
  }, 120_000);
});
