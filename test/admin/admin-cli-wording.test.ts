import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, runAdminCli } from '../support/admin-cli.ts';
import { testConnection } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

const sandboxDir = mkdtempSync(join(tmpdir(), 'svc-admin-wording-'));
const admin = (...args: string[]) => runAdminCli(args, { sandboxDir });
/** `--aws` on the run's DynamoDB Local: the SDK's own endpoint variable stands in for the deployed table's region. */
const adminAws = (...args: string[]) =>
  runAdminCli([...args, '--aws'], {
    sandboxDir,
    env: { AWS_ENDPOINT_URL_DYNAMODB: testConnection().endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_SESSION_TOKEN: '', AWS_PROFILE: '' },
  });

/** docs/operations.md, "Admin CLI": what each command says it did, and when running functions see it. */
describe('admin CLI wording', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    // As `npm start` runs it (bin/sandbox.ts): no key or merchant cache.
    sandbox = await startTestSandbox({ keyCacheTtlMs: 0 });
  });
  afterAll(() => sandbox.stop());

  it('merchant create says which gateway each currency starts on and how to move it, not a bare "test mode is on for bank_direct"', async () => {
    const { code, stdout, stderr } = await admin('merchant', 'create', '--name', 'Tienda Mercantil');

    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const merchantId = /Merchant (mer_\w+) "Tienda Mercantil" created\./.exec(stdout)![1];
    expect(stdout).not.toContain('Test mode is on for');
    expect(stdout).toContain('It starts on the default gateways:\n  VES payments: bank_direct (test mode on); also available: bank_otp, mercantil\n  USD payments: card_processor (no test environment: live keys only); also available: stripe\n');
    expect(stdout).toContain(`To use another: merchant gateway --merchant ${merchantId} --currency <currency> --gateway <gateway>, then test-mode --on and credentials load for it (docs/connectors.md).`);
    expect(stdout).not.toMatch(/30 s|cache/);
  });

  it('says nothing of a cache on the sandbox, where the change applies at once', async () => {
    const { merchant, keys } = await sandbox.newMerchant();

    const off = await admin('test-mode', '--merchant', merchant.id, '--gateway', 'bank_direct', '--off');
    expect(off).toEqual({ code: 0, stdout: `Test mode is off for bank_direct of ${merchant.id}.\n`, stderr: '' });
    const refused = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
    expect(refused.body.code).toBe('test_mode_off');

    const limits = await admin('limits', 'set', '--merchant', merchant.id, '--class', 'sessions', '--per-minute', '480', '--per-day', '40000');
    expect(limits.stdout).toBe(`sessions limit of ${merchant.id}: 480/min, 40000/day.\n`);
    const revoked = await admin('keys', 'revoke', '--merchant', merchant.id, '--key', keys.secretLive);
    expect(revoked.stdout).toMatch(/^Revoked sk_live_\.\.\.\w{4}\.\n$/);
  });

  it('with --aws says when running functions see the change: 30 s for the merchant, 5 s for a revoked key', async () => {
    const { merchant, keys } = await sandbox.newMerchant();

    const on = await adminAws('test-mode', '--merchant', merchant.id, '--gateway', 'bank_direct', '--on');
    expect(on).toEqual({ code: 0, stdout: `Test mode is on for bank_direct of ${merchant.id}. Running API functions see the change within 30 s (their merchant cache).\n`, stderr: '' });
    const revoked = await adminAws('keys', 'revoke', '--merchant', merchant.id, '--key', keys.secretLive);
    expect(revoked.stdout).toMatch(/^Revoked sk_live_\.\.\.\w{4}\. Running API functions refuse it within 5 s \(their key cache\)\.\n$/);
  });
});
