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

  it('is an admin of the seeded merchant with a temporary password, changed at the first sign-in as an invited user\'s', async () => {
    const { merchant } = await sandbox.newMerchant();
    const file = join(mkdtempSync(join(tmpdir(), 'svc-seed-')), 'dashboard-admin.json');
    // The table is shared by the run's test files: this test owns the seeded email while it runs.
    const stale = await sandbox.deps.users.getByEmail(SANDBOX_ADMIN_EMAIL);
    if (stale) await sandbox.deps.users.remove(stale);
    const seed = () => seedSandboxAdmin({ users: sandbox.deps.users, userDirectory: sandbox.userDirectory }, merchant.id, file, sandbox.clock.now());

    const seeded = await seed();
    expect(seeded).toMatchObject({ email: SANDBOX_ADMIN_EMAIL, temporary: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The printed password opens the new-password step, not the dashboard; the same on every start until then.
    const first = await signIn(seeded.email, seeded.password);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ challenge: 'new_password', challengeSession: expect.any(String) });
    expect(await seed()).toEqual(seeded);
    const chosen = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: 'My-Own-Password-42' } });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.user).toMatchObject({ email: SANDBOX_ADMIN_EMAIL, role: 'admin', merchantId: merchant.id });
    // An admin without two-step verification: held on the Security page until it is on.
    const me = await sandbox.request('GET', '/v1/dashboard/me', { headers: { authorization: `Bearer ${chosen.body.token}` } });
    expect(me.body.mfaRequired).toBe(true);

    // Chosen: the next start no longer offers the temporary password, which no longer signs in.
    expect(await seed()).toEqual({ ...seeded, temporary: false });
    expect((await signIn(seeded.email, seeded.password)).status).toBe(401);
    expect((await signIn(seeded.email, 'My-Own-Password-42')).body.token).toEqual(expect.any(String));

    // The file lost: the same user gets a new temporary password, printed again.
    rmSync(file);
    const again = await seed();
    expect(again).toMatchObject({ email: SANDBOX_ADMIN_EMAIL, temporary: true });
    expect(again.password).not.toBe(seeded.password);
    expect((await signIn(again.email, again.password)).body.challenge).toBe('new_password');
    expect((await signIn(seeded.email, 'My-Own-Password-42')).status).toBe(401);
    await sandbox.deps.users.remove((await sandbox.deps.users.getByEmail(SANDBOX_ADMIN_EMAIL))!);
  });
});
