import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/sandbox/free-port.ts';
import { signatureHeader } from '../../shared/webhooks/signature.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
/** The system's Node.js 20: no tsx, no loader, what a merchant's server runs. */
const PLAIN_NODE = '/usr/bin/node';

/** @svc/node built, packed and installed from its tarball in a project outside the repository, run without tsx. */
describe('the @svc/node package', () => {
  let sandbox: TestSandbox;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    await run('npm', ['run', 'build:sdk'], { cwd: repo });
    const packDir = mkdtempSync(join(tmpdir(), 'svc-sdk-pack-'));
    await run('npm', ['pack', '--pack-destination', packDir], { cwd: join(repo, 'packages/svc-node') });
    const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
    project = mkdtempSync(join(tmpdir(), 'svc-sdk-consumer-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
    copyFileSync(join(import.meta.dirname, 'consumer-scenario.cjs'), join(project, 'scenario.cjs'));
    writeFileSync(join(project, 'esm.mjs'), "import * as sdk from '@svc/node';\nimport run from './scenario.cjs';\nawait run(sdk);\n");
    writeFileSync(join(project, 'cjs.cjs'), "const sdk = require('@svc/node');\nrequire('./scenario.cjs')(sdk).catch((e) => { console.error(e); process.exit(1); });\n");

    sandbox = await startTestSandbox();
    const { keys } = await sandbox.newMerchant();
    const secret = 'whsec_sdkpackagetest';
    const body = JSON.stringify({ id: 'evt_sdk_1', type: 'webhook.test', createdAt: new Date().toISOString(), env: 'test', data: { sample: true } });
    const now = Math.floor(Date.now() / 1000);
    env = {
      PATH: process.env.PATH,
      SVC_URL: sandbox.url,
      SVC_KEY: keys.secretTest,
      WEBHOOK_SECRET: secret,
      WEBHOOK_BODY: body,
      WEBHOOK_HEADER: signatureHeader(secret, body, now),
      OLD_WEBHOOK_HEADER: signatureHeader(secret, body, now - 600),
    };
  }, 300_000);
  afterAll(async () => {
    await sandbox?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('installs with no dependencies and declarations that need neither zod nor the repository', () => {
    const installed = join(project, 'node_modules/@svc/node');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ private: true, engines: { node: '>=20' } });
    expect(manifest.dependencies).toBeUndefined();
    expect(readdirSync(join(project, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['@svc']);
    const declarations = readFileSync(join(installed, 'dist/index.d.ts'), 'utf8');
    expect(declarations).not.toMatch(/\bimport\b|zod|\.ts['"]/);
  });

  it('puts the svc CLI on the bin path of the project', async () => {
    const { stdout } = await run(join(project, 'node_modules/.bin/svc'), ['--help'], { cwd: project, env: { PATH: `/usr/bin:${process.env.PATH}` }, timeout: 60_000 });
    expect(stdout).toMatch(/svc listen --forward-to <url>[\s\S]*svc trigger </);
  }, 120_000);

  for (const script of ['esm.mjs', 'cjs.cjs']) {
    it(`${script}: creates (one session despite a lost answer), reads, gets a typed error and verifies webhooks`, async () => {
      const { stdout } = await run(PLAIN_NODE, [script], { cwd: project, env, timeout: 120_000 });
      const seen = JSON.parse(stdout.trim().split('\n').at(-1)!);
      // The lost first answer was retried with the same automatic key, and the API replayed the same session; the
      // next create (the bad one, a 400: never retried) got a key of its own.
      expect(seen.sentKeys).toHaveLength(3);
      expect(seen.sentKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen.sentKeys[1]).toBe(seen.sentKeys[0]);
      expect(seen.sentKeys[2]).not.toBe(seen.sentKeys[0]);
      expect(seen.created.reference).toMatch(/^cs_/);
      expect(seen.read).toMatchObject({ reference: seen.created.reference, amountMinor: 1050, status: 'created' });
      const sessions = await sandbox.request('GET', '/v1/sessions?pageSize=100', { key: env.SVC_KEY });
      expect(sessions.body.data.filter((s: { reference: string }) => s.reference === seen.created.reference)).toHaveLength(1);

      expect(seen.error).toMatchObject({ isSvcApiError: true, status: 400, code: expect.stringMatching(/^parameter_/), requestId: expect.any(String) });
      // An absolute URL that opens the code's entry in the docs this sandbox serves.
      expect(seen.error.docUrl).toBe(`${sandbox.url.replace('127.0.0.1', 'localhost')}/docs/errors#error-${seen.error.code}`);
      expect(seen.error.errors.length).toBeGreaterThanOrEqual(2);

      expect(seen.webhook).toEqual({ eventId: 'evt_sdk_1', tampered: 'signature_mismatch', oldDefault: 'timestamp_outside_tolerance', oldWiderTolerance: 'accepted' });
    }, 180_000);
  }

  // docs/guide.md promises that each of its js blocks runs as a file of the merchant's own project.
  it("runs every js snippet of docs/guide.md as a file of the merchant's project: the client's and the webhook receiver's", async () => {
    const snippets = [...readFileSync(join(repo, 'docs/guide.md'), 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    for (const [index, snippet] of snippets.entries()) {
      expect(snippet, 'imports the package, never a path of the repository').not.toMatch(/from '\.{1,2}\//);
      const file = join(project, `guide-${index}.mjs`);
      writeFileSync(file, snippet);
      if (!snippet.includes('.listen(')) {
        const { stdout } = await run(PLAIN_NODE, [file], { cwd: project, env: { ...env, SVC_SECRET_KEY: env.SVC_KEY }, timeout: 60_000 });
        expect(stdout).toContain(`${sandbox.url}/checkout?session=cs_`.replace('127.0.0.1', 'localhost'));
        expect(stdout).toContain(`400 parameter_invalid Invalid amountMinor: amounts are integers in minor units (cents): 10.50 is 1050. ${sandbox.url.replace('127.0.0.1', 'localhost')}/docs/errors#error-parameter_invalid`);
        continue;
      }
      const port = await freePort();
      const receiver = spawn(PLAIN_NODE, [file], { cwd: project, env: { ...env, PORT: String(port), SVC_WEBHOOK_SECRET: env.WEBHOOK_SECRET } });
      try {
        await new Promise<void>((resolve, reject) => {
          receiver.stdout.on('data', (chunk: Buffer) => String(chunk).includes('listening') && resolve());
          receiver.once('exit', (code) => reject(new Error(`the receiver exited (${code})`)));
        });
        const post = (header: string) => fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'svc-signature': header }, body: env.WEBHOOK_BODY });
        expect((await post(env.WEBHOOK_HEADER!)).status).toBe(204);
        expect((await post(env.WEBHOOK_HEADER!)).status, 'a repeat is answered, not handled twice').toBe(204);
        const refused = await post(env.OLD_WEBHOOK_HEADER!);
        expect(refused.status).toBe(400);
        expect(await refused.text()).toBe('timestamp_outside_tolerance');
      } finally {
        receiver.kill();
      }
    }
  }, 180_000);

  it('type-checks a TypeScript consumer against the installed declarations', async () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { createSvcClient, parseWebhookEvent, SvcApiError, type Session, type WebhookEvent } from '@svc/node';
const svc = createSvcClient({ baseUrl: 'http://localhost:4010', secretKey: 'sk_test_x', maxRetries: 3 });
export async function checkout(): Promise<string> {
  const session: Session = await svc.sessions.create({ amountMinor: 1050, currency: 'VES', metadata: { orderId: '42' } });
  const status: 'created' | 'otp_requested' | 'otp_confirmed' | 'processing' | 'completed' | 'failed' | 'expired' = session.status;
  // @ts-expect-error only the API's currencies are accepted
  await svc.sessions.create({ amountMinor: 1, currency: 'EUR' });
  // @ts-expect-error amountMinor is a number
  await svc.sessions.create({ amountMinor: '1', currency: 'VES' });
  try {
    await svc.refunds.create('tx_1', { amountMinor: 100 });
  } catch (e) {
    if (e instanceof SvcApiError) return \`\${e.code} \${e.requestId ?? ''} \${e.docUrl ?? ''}\`;
  }
  const event: WebhookEvent = parseWebhookEvent({ rawBody: '{}', header: 't=1,v1=x', secret: 'whsec_x', toleranceSeconds: 600 });
  return \`\${status} \${event.type}\`;
}
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], typeRoots: [join(repo, 'node_modules/@types')] },
        files: ['consumer.ts'],
      }),
    );
    await run(join(repo, 'node_modules/.bin/tsc'), ['-p', project], { cwd: project, timeout: 120_000 });
  }, 180_000);
});
