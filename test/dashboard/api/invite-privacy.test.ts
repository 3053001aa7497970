/**
 * Issue 21, finding 11: an invitation never tells an admin that an email belongs to another merchant's user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, TEST_PASSWORD, uniqueEmail } from './dashboard-users.ts';

describe('dashboard invitations reveal no other merchant’s users', { timeout: 120_000 }, () => {
  let sandbox: TestSandbox;
  let merchantA: string;
  let merchantB: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    merchantA = (await sandbox.newMerchant()).merchant.id;
    merchantB = (await sandbox.newMerchant()).merchant.id;
  });
  afterAll(() => sandbox.stop());

  const signIn = (email: string, password: string) => sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email, password } });

  it("answers an invite of another merchant's user's email as a fresh one; that user keeps their account, removal and all", async () => {
    const adminA = await signedInUser(sandbox, merchantA, 'admin');
    const userB = await signedInUser(sandbox, merchantB, 'developer');
    const invite = (email: string) => adminA.request('POST', '/v1/dashboard/users', { body: { email, role: 'developer' } });

    const fresh = await invite(uniqueEmail('fresh'));
    const clash = await invite(userB.email);
    expect(fresh.status, fresh.text).toBe(201);
    expect(clash.status, clash.text).toBe(201);
    expect(Object.keys(clash.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(Object.keys(clash.body.user).sort()).toEqual(Object.keys(fresh.body.user).sort());
    expect(clash.body.user).toMatchObject({ email: userB.email, role: 'developer', merchantId: merchantA, id: expect.stringMatching(/^usr_/) });
    expect(clash.body.temporaryPassword.length).toBe(fresh.body.temporaryPassword.length);
    const listed = await adminA.request('GET', '/v1/dashboard/users');
    expect(listed.body.data.map((user: { id: string }) => user.id)).toContain(clash.body.user.id);

    // The email still signs in to merchant B's account only; the answered password opens nothing.
    expect((await signIn(userB.email, clash.body.temporaryPassword)).status).toBe(401);
    const stillB = await signIn(userB.email, TEST_PASSWORD);
    expect(stillB.status).toBe(200);
    expect(stillB.body.user).toMatchObject({ id: userB.userId, merchantId: merchantB });

    const removed = await adminA.request('DELETE', `/v1/dashboard/users/${clash.body.user.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect((await signIn(userB.email, TEST_PASSWORD)).body.user.id).toBe(userB.userId);
    expect((await invite(userB.email)).status).toBe(201);
  });

  it("answers 409 user_exists only for an email of the admin's own merchant (in its own user list already)", async () => {
    const adminA = await signedInUser(sandbox, merchantA, 'admin');
    const colleague = await signedInUser(sandbox, merchantA, 'read_only');
    const again = await adminA.request('POST', '/v1/dashboard/users', { body: { email: colleague.email, role: 'admin' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('user_exists');
  });
});
