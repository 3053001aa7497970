import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT_MS, runAdminCli } from '../../support/admin-cli.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, uniqueEmail } from './dashboard-users.ts';

const sandboxDir = mkdtempSync(join(tmpdir(), 'svc-dashboard-cli-'));
const admin = (...args: string[]) => runAdminCli([...args, '--json'], { sandboxDir });

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
