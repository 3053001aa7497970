import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConnection } from '../../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, uniqueEmail } from './dashboard-users.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Each CLI run starts npm and tsx: ~10 s on a busy machine, and these tests run four or five. */
const CLI_TEST_TIMEOUT_MS = 240_000;
const sandboxDir = mkdtempSync(join(tmpdir(), 'svc-dashboard-cli-'));

/** The real admin CLI against the run's DynamoDB Local (a child process through npm). */
function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { endpoint, tableName } = testConnection();
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'admin', '--', ...args, '--json'], { cwd: PROJECT_ROOT, env: { ...process.env, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, SANDBOX_DIR: sandboxDir } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('admin CLI: dashboard users and test-mode requests', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it("users create makes a merchant's first admin, who signs in with the temporary password and sets a new one", async () => {
    const { merchant } = await sandbox.newMerchant();
    const email = uniqueEmail('first-admin');
    const created = await admin('users', 'create', '--merchant', merchant.id, '--email', email, '--role', 'admin');
    expect(created.code, created.stderr).toBe(0);
    const { user, temporaryPassword } = JSON.parse(created.stdout);
    expect(user).toMatchObject({ email, role: 'admin', merchantId: merchant.id });
    const first = await sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email, password: temporaryPassword } });
    expect(first.body.challenge).toBe('new_password');
    const done = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: 'Brand-New-Passw0rd' } });
    expect(done.status).toBe(200);
    expect(done.body.user.role).toBe('admin');

    const again = await admin('users', 'create', '--merchant', merchant.id, '--email', email, '--role', 'developer');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already has a dashboard account');
    expect((await admin('users', 'create', '--merchant', 'mer_NoSuchMerchant', '--email', uniqueEmail('x'), '--role', 'admin')).code).toBe(1);
    expect((await admin('users', 'create', '--merchant', merchant.id, '--email', uniqueEmail('x'), '--role', 'owner')).code).toBe(2);
  }, CLI_TEST_TIMEOUT_MS);

  it('lists pending test-mode requests and approves one, which the merchant then sees', async () => {
    const { merchant } = await sandbox.newMerchant();
    const adminUser = await signedInUser(sandbox, merchant.id, 'admin');
    expect((await adminUser.request('POST', '/v1/dashboard/test-mode-requests', { body: { gateway: 'bank_direct', enabled: false } })).status).toBe(202);

    const listed = await admin('test-mode', 'requests');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).requests).toContainEqual(expect.objectContaining({ merchantId: merchant.id, gateway: 'bank_direct', enabled: false, status: 'pending' }));

    const approved = await admin('test-mode', 'approve', '--merchant', merchant.id, '--gateway', 'bank_direct');
    expect(approved.code, approved.stderr).toBe(0);
    const settings = await adminUser.request('GET', '/v1/dashboard/settings');
    expect(settings.body.testMode.bank_direct).toMatchObject({ state: 'off', request: { status: 'approved' } });
    expect(JSON.parse((await admin('test-mode', 'requests')).stdout).requests).not.toContainEqual(expect.objectContaining({ merchantId: merchant.id }));
    expect((await admin('test-mode', 'refuse', '--merchant', merchant.id, '--gateway', 'bank_direct')).code).toBe(1);
  }, CLI_TEST_TIMEOUT_MS);
});
