import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankCredentialsContext } from '../../shared/admin/bank-credentials.ts';
import { localSecretBox } from '../../shared/crypto/local-secret-box.ts';
import { CLI_TEST_TIMEOUT_MS, runAdminCli } from '../support/admin-cli.ts';
import { scanTable, testConnection } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { writeRunningSandbox } from '../../infra/sandbox/environment.ts';

// The CLI runs beside the sandbox with the sandbox's environment: the run's DynamoDB Local, its own key directory.
const sandboxDir = mkdtempSync(join(tmpdir(), 'svc-admin-cli-'));
const admin = (...args: string[]) => runAdminCli(args, { sandboxDir });

describe('admin CLI', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('merchant create --json, run as `npm run admin`, prints one JSON object whose secret test key opens sessions on the sandbox', async () => {
    const { code, stdout, stderr } = await runAdminCli(['merchant', 'create', '--name', 'Acme', '--json'], { sandboxDir, viaNpm: true });

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const created = JSON.parse(stdout);
    expect(created).toMatchObject({
      merchantId: expect.stringMatching(/^mer_/),
      secretTest: expect.stringMatching(/^sk_test_/),
      publishableTest: expect.stringMatching(/^pk_test_/),
      restrictedTest: expect.stringMatching(/^rk_test_/),
      secretLive: expect.stringMatching(/^sk_live_/),
      publishableLive: expect.stringMatching(/^pk_live_/),
      restrictedLive: expect.stringMatching(/^rk_live_/),
      provisioned: true,
      testMode: { bank_direct: true },
    });
    const session = await sandbox.request('POST', '/v1/sessions', { key: created.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
    expect(session.status).toBe(201);
  });

  it('credentials load stores only ciphertext, marks the gateway loaded, and never prints the credentials', async () => {
    const { merchant } = await sandbox.newMerchant();
    const password = `Pa55-${Date.now()}-never-in-the-table`;
    const content = JSON.stringify({ username: 'acme-api', password });
    const file = join(sandboxDir, 'bank_direct.json');
    writeFileSync(file, content, { mode: 0o600 });

    const { code, stdout, stderr } = await admin('credentials', 'load', '--merchant', merchant.id, '--gateway', 'bank_direct', '--file', file, '--json');

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual({ merchantId: merchant.id, gateway: 'bank_direct', credentialsLoaded: true });
    expect(stdout).not.toContain(password);
    expect(JSON.stringify(await scanTable())).not.toContain(password);
    expect((await sandbox.deps.merchants.get(merchant.id))!.credentialsLoaded.bank_direct).toBe(true);
    const ciphertext = (await sandbox.deps.merchants.getCredentials(merchant.id, 'bank_direct'))!;
    const box = localSecretBox(join(sandboxDir, 'keys'));
    expect(await box.decrypt(ciphertext, bankCredentialsContext(merchant.id, 'bank_direct'))).toBe(content);
    await expect(box.decrypt(ciphertext, bankCredentialsContext(merchant.id, 'bank_otp'))).rejects.toThrow(/another record/);
  });

  it('follows sandbox.json to a loopback DynamoDB Local and says on stderr which one it acts on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-admin-file-'));
    const { endpoint, tableName } = testConnection();
    writeRunningSandbox(dir, { url: 'http://localhost:4999', dynamoEndpoint: endpoint, tableName });

    const { code, stdout, stderr } = await runAdminCli(['merchant', 'create', '--name', 'Acme', '--json'], { sandboxDir: dir, followSandboxFile: true });

    expect({ code, stderr }).toEqual({ code: 0, stderr: `Sandbox: table ${tableName} at ${endpoint} (from ${join(dir, 'sandbox.json')}).\n` });
    expect(await sandbox.deps.merchants.get(JSON.parse(stdout).merchantId)).toMatchObject({ name: 'Acme' });
  });

  it('refuses a planted sandbox.json naming another machine: exit 1, a clear message, and that machine hears nothing (round 4, finding 6)', async () => {
    // A listener on every address, named by this machine's own non-loopback address: as another host would be.
    const heard: string[] = [];
    const listener = createServer((req, res) => {
      heard.push(`${req.method} ${String(req.headers['x-amz-target'])}`);
      res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
    });
    await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
    const external = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address ?? '192.0.2.1';
    const planted = `http://${external}:${(listener.address() as AddressInfo).port}`;
    const dir = mkdtempSync(join(tmpdir(), 'svc-admin-planted-'));
    writeFileSync(join(dir, 'sandbox.json'), JSON.stringify({ url: 'http://localhost:4999', dynamoEndpoint: planted, tableName: 'svc-sandbox' }), { mode: 0o644 });

    try {
      const { code, stdout, stderr } = await runAdminCli(['merchant', 'show', '--merchant', 'mer_planted'], { sandboxDir: dir, followSandboxFile: true });

      expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
      expect(stderr).toBe(`Error: ${join(dir, 'sandbox.json')} names DynamoDB at ${planted}, which is not this machine: a sandbox's DynamoDB Local is always on loopback, so the file is refused. Remove it, or give DYNAMODB_ENDPOINT to the command.\n`);
      expect(heard).toEqual([]);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('answers a usage error with exit code 2, the command’s usage and no stack trace', async () => {
    const { code, stdout, stderr } = await admin('merchant', 'create', '--json');

    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--name is required');
    expect(stderr).toContain('Usage: npm run --silent admin -- merchant create --name <name>');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses test mode on a gateway without a test environment with exit code 1 and a clear message', async () => {
    const { merchant } = await sandbox.newMerchant();
    const { code, stderr } = await admin('test-mode', '--merchant', merchant.id, '--gateway', 'bank_otp', '--on');

    expect(code).toBe(1);
    expect(stderr).toBe('Error: The bank_otp gateway has no test environment, so test mode cannot be switched on for it.\n');
    expect((await sandbox.deps.merchants.get(merchant.id))!.testMode.bank_otp).toBeUndefined();
  });

  it('merchant gateway puts a currency on another gateway of that currency, and refuses one of another', async () => {
    const { merchant } = await sandbox.newMerchant();
    const moved = await admin('merchant', 'gateway', '--merchant', merchant.id, '--currency', 'VES', '--gateway', 'bank_otp', '--json');
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toEqual({ merchantId: merchant.id, currency: 'VES', gateway: 'bank_otp', credentialsLoaded: false });
    const refused = await admin('merchant', 'gateway', '--merchant', merchant.id, '--currency', 'USD', '--gateway', 'bank_direct');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('Error: The bank_direct gateway processes VES, not USD.\n');
    expect((await sandbox.deps.merchants.get(merchant.id))!.gateways).toEqual({ VES: 'bank_otp', USD: 'card_processor' });
  });

  it('merchant pago-movil puts C2P on mercantil with the phone and RIF, and refuses a RIF with a wrong check digit', async () => {
    const { merchant } = await sandbox.newMerchant();
    const set = await admin('merchant', 'pago-movil', '--merchant', merchant.id, '--method', 'pago_movil_c2p', '--gateway', 'mercantil', '--phone', '0424-111.22.33', '--rif', 'J-07013380-5', '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ merchantId: merchant.id, method: 'pago_movil_c2p', gateway: 'mercantil', payee: { phone: '04241112233', rif: 'J-07013380-5' }, credentialsLoaded: false });
    const refused = await admin('merchant', 'pago-movil', '--merchant', merchant.id, '--method', 'pago_movil_c2p', '--gateway', 'mercantil', '--phone', '04241112233', '--rif', 'J-07013380-4');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('Error: The RIF "J-07013380-4" is not valid: a letter (V, E, J, P, G), 8 digits and its check digit, as J-07013380-5.\n');
    expect((await sandbox.deps.merchants.get(merchant.id))!.pagoMovil!.payee.rif).toBe('J-07013380-5');
  });

  it('merchant branding sets the business name and a logo the checkout then shows, and --no-logo removes it', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const logo = join(sandboxDir, 'logo.png');
    writeFileSync(logo, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]));
    const set = await admin('merchant', 'branding', '--merchant', merchant.id, '--business-name', '  Café  Ávila ', '--logo', logo, '--json');

    expect({ code: set.code, stderr: set.stderr }).toEqual({ code: 0, stderr: '' });
    const branded = JSON.parse(set.stdout);
    expect(branded).toEqual({ merchantId: merchant.id, businessName: 'Café Ávila', logoUrl: expect.stringMatching(new RegExp(`^/v1/checkout/logos/${merchant.id}/[0-9a-f]{32}$`)) });
    sandbox.advance(31); // past the merchant cache
    const session = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
    const page = await sandbox.request('GET', `/v1/checkout/sessions/${session.body.reference}`);
    expect(page.body.merchant).toEqual({ businessName: 'Café Ávila', logoUrl: branded.logoUrl });
    expect((await sandbox.request('GET', branded.logoUrl)).status).toBe(200);

    const removed = await admin('merchant', 'branding', '--merchant', merchant.id, '--no-logo', '--json');
    expect(JSON.parse(removed.stdout)).toEqual({ merchantId: merchant.id, businessName: 'Café Ávila', logoUrl: null });
    expect((await sandbox.request('GET', branded.logoUrl)).status).toBe(404);
  });

  it('merchant branding refuses an SVG logo, a name too long and an unknown merchant with exit code 1, changing nothing', async () => {
    const { merchant } = await sandbox.newMerchant();
    const svg = join(sandboxDir, 'logo.svg');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

    const refused = await admin('merchant', 'branding', '--merchant', merchant.id, '--business-name', 'Café', '--logo', svg);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'Error: The logo must be a PNG, JPEG or WebP image (SVG is not accepted).\n' });
    const tooLong = await admin('merchant', 'branding', '--merchant', merchant.id, '--business-name', 'x'.repeat(81));
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/at most 80/);
    expect(await sandbox.deps.merchants.get(merchant.id)).toEqual(merchant);

    const unknown = await admin('merchant', 'branding', '--merchant', 'mer_nobody', '--business-name', 'Nadie');
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'Error: No merchant mer_nobody in this table.\n' });
    const usage = await admin('merchant', 'branding', '--merchant', merchant.id, '--logo', svg, '--no-logo');
    expect(usage.code).toBe(2);
  });
});
