import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSandboxAdmin, SANDBOX_ADMIN_EMAIL } from '../../../shared/dashboard/sandbox-admin.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';

describe("the sandbox's seeded dashboard admin", () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  const signIn = (email: string, password: string) => sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email, password } });

  it('is an admin of the seeded merchant who signs in with the printed password, the same on every start', async () => {
    const { merchant } = await sandbox.newMerchant();
    const file = join(mkdtempSync(join(tmpdir(), 'svc-seed-')), 'dashboard-admin.json');
    // The table is shared by the run's test files: this test owns the seeded email while it runs.
    const stale = await sandbox.deps.users.getByEmail(SANDBOX_ADMIN_EMAIL);
    if (stale) await sandbox.deps.users.remove(stale);

    const seeded = await seedSandboxAdmin({ users: sandbox.deps.users, userDirectory: sandbox.userDirectory }, merchant.id, file, sandbox.clock.now());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const res = await signIn(seeded.email, seeded.password);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ email: SANDBOX_ADMIN_EMAIL, role: 'admin', merchantId: merchant.id });
    expect(await seedSandboxAdmin({ users: sandbox.deps.users, userDirectory: sandbox.userDirectory }, merchant.id, file, sandbox.clock.now())).toEqual(seeded);

    // The file lost: the same user gets a new password, printed again.
    rmSync(file);
    const again = await seedSandboxAdmin({ users: sandbox.deps.users, userDirectory: sandbox.userDirectory }, merchant.id, file, sandbox.clock.now());
    expect(again.password).not.toBe(seeded.password);
    expect((await signIn(again.email, again.password)).status).toBe(200);
    expect((await signIn(seeded.email, seeded.password)).status).toBe(401);
    await sandbox.deps.users.remove((await sandbox.deps.users.getByEmail(SANDBOX_ADMIN_EMAIL))!);
  });
});
